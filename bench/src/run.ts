import { callImportsBench } from './call-imports.js';
import { clusterQuality } from './clusters.js';
import { DISPATCH_SCENARIOS, DISPATCH_SETTINGS, dispatchBench } from './dispatch.js';
import { httpOverhead } from './http-overhead.js';
import { sdkBench } from './sdk.js';

type Bench = {
  name: string;
  run: () => Promise<Record<string, number>>;
  print: (r: Record<string, number>) => string;
};

const fmt = (n: number, digits = 0) => n.toFixed(digits);

/** Every benchmark: `pnpm bench` runs them all, `pnpm bench <name>` one. */
const BENCHES: Bench[] = [
  {
    name: 'http-overhead',
    run: () => httpOverhead(),
    print: (r) =>
      `http-overhead (${r.postgres ? 'Postgres' : 'PGlite'}): ${fmt(r.subject!)} req/s (API key, workspace-scoped GET by id) vs ${fmt(r.baseline!)} req/s ` +
      `(bare Express + same SELECT); ratio ${fmt(r.ratio!, 3)} (target >= 0.85); ` +
      `max p99 ${fmt(r.subjectP99!)} ms vs ${fmt(r.baselineP99!)} ms; failed requests ${r.failures}`,
  },
  {
    name: 'call-imports',
    run: () => callImportsBench(),
    print: (r) =>
      [
        `call-imports (${r.postgres ? 'Postgres' : 'PGlite'}):`,
        `  ingest ${fmt(r.ingestRatio!, 2)}x COPY (target <= 3): 100k-row CSV (${fmt(r.csvMb!, 1)} MB) in ` +
          `${fmt(r.ingestMs!)} ms vs ${r.postgres ? 'psql \\copy' : "PGlite COPY FROM '/dev/blob'"} ${fmt(r.copyMs!)} ms; ` +
          `peak RSS ${fmt(r.peakRssMb!)} MB (target <= 300) of ${r.separateProcess ? 'the server process' : 'this process'}, ` +
          `${fmt(r.rssBeforeMb!)} MB before the upload`,
        `  row-ids ${fmt(r.rowIdsRatio!, 2)}x raw SQL (target <= 1.5): 1M ids in ${fmt(r.rowIdsMs!)} ms vs ` +
          `SELECT through the same driver ${fmt(r.rawSelectMs!)} ms`,
        `  queueing ${fmt(r.queueRatio!, 2)}x raw UPDATE (target <= 1.5): transcribe of 100k rows in ` +
          `${fmt(r.queueMs!)} ms vs one UPDATE ${fmt(r.rawUpdateMs!)} ms`,
      ].join('\n'),
  },
  {
    name: 'clusters',
    run: () => clusterQuality(),
    print: (r) =>
      `clusters: adjusted Rand index ${fmt(r.ari!, 3)} (target >= 0.8) on ${r.items} flagged rationales ` +
      `from ${r.modes} failure modes, no model; ${r.clusters} clusters in ${fmt(r.ms!)} ms`,
  },
  {
    name: 'dispatch',
    run: () => dispatchBench(),
    print: (r) => {
      const wait = (s: string, p: string) =>
        `${r[`${s}.${p}.p99Censored`] ? '>= ' : ''}${fmt(r[`${s}.${p}.p99WaitMs`]!)} ms`;
      const lines = DISPATCH_SCENARIOS.map(
        (s) =>
          `  ${s.padEnd(11)} throughput ${fmt(r[`${s}.fair.throughput`]!, 3)} of limit (FIFO ${fmt(r[`${s}.fifo.throughput`]!, 3)}); ` +
          `worst-tenant share ${fmt(r[`${s}.fair.share`]!, 3)} (FIFO ${fmt(r[`${s}.fifo.share`]!, 3)}); ` +
          `light tenant p99 wait ${wait(s, 'fair')} (FIFO ${wait(s, 'fifo')})`,
      );
      const { globalLimit, latencyMs, runMs } = DISPATCH_SETTINGS;
      return [
        `dispatch: fair vs FIFO (oldest row first, same run), global_limit ${globalLimit}, judge ${latencyMs} ms, ` +
          `${runMs / 1000} s measured per scenario and policy (targets: throughput >= 0.9 of global_limit / latency, ` +
          'worst-tenant share >= 0.9)',
        ...lines,
      ].join('\n');
    },
  },
  {
    name: 'sdk',
    run: () => sdkBench(),
    print: (r) =>
      `sdk: ${fmt(r.sdk!)} calls/s (client.workspaces.get, response validated) vs ${fmt(r.raw!)} calls/s ` +
      `(raw fetch + res.json, same URL and headers); ratio ${fmt(r.ratio!, 3)} (target >= 0.95); ` +
      `bundle ${fmt(r.minKb!, 1)} KiB minified, ${fmt(r.gzipKb!, 1)} KiB min+gzip (deps included)`,
  },
];

const only = process.argv[2];
for (const bench of BENCHES.filter((b) => !only || b.name === only)) {
  const result = await bench.run();
  console.log(bench.print(result));
}
