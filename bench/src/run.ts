import { callImportsBench } from './call-imports.js';
import { clusterQuality, REAL_SETTINGS } from './clusters.js';
import { COLD_START_SETTINGS, coldStartBench } from './cold-start.js';
import { CONSOLE_SETTINGS, consoleBench } from './console.js';
import { DISPATCH_SCENARIOS, DISPATCH_SETTINGS, dispatchBench } from './dispatch.js';
import { httpOverhead, httpOverheadDatabases } from './http-overhead.js';
import { ingestBench } from './ingest.js';
import { sdkBench } from './sdk.js';
import { SIMULATION_SETTINGS, simulationBench } from './simulation.js';
import { VOICE_SETTINGS, voiceBench } from './voice.js';

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
      [
        `http-overhead: GET /api/v1/workspaces/:id with an API key; ${r.runs} runs of ${r.seconds} s per server ` +
          'on each database, medians (target: ours >= 0.95 of the floor, the floor being bare Express with only ' +
          'a request id, the security headers, an API-key lookup and the log line, all running the same SELECT)',
        ...httpOverheadDatabases().map(({ name }) => {
          const v = (k: string) => r[`${name}.${k}`]!;
          return (
            `  ${name} (metrics ${v('metrics') ? 'on' : 'off'}, load ${fmt(v('load1'), 2)}): ours ${fmt(v('ours'))} req/s, ` +
            `floor ${fmt(v('floor'))} req/s, bare ${fmt(v('bare'))} req/s; ours / floor ${fmt(v('ratio'), 3)} ` +
            `(runs ${fmt(v('ratioMin'), 3)}–${fmt(v('ratioMax'), 3)}; floor / bare ${fmt(v('floorOfBare'), 3)})\n` +
            `    server CPU per request: bare ${fmt(v('bareCpuUs'))} µs, ours +${fmt(v('oursCpuAboveBareUs'))} µs, ` +
            `floor +${fmt(v('floorCpuAboveBareUs'))} µs; max p99 ours ${fmt(v('oursP99'))} ms, floor ` +
            `${fmt(v('floorP99'))} ms; failed requests ${v('failures')}`
          );
        }),
      ].join('\n'),
  },
  {
    name: 'ingest',
    run: () => ingestBench(),
    print: (r) =>
      [
        `ingest (${r.postgres ? 'Postgres' : 'PGlite'}, load ${fmt(r.load1!, 2)}): signed Retell call_ended deliveries, ` +
          `each a new call, ${r.connections} connections, ${r.runs} runs of ${r.seconds} s, medians ` +
          '(the floor: bare Express verifying the same signature and inserting the same two rows)',
        `  ours ${fmt(r.ours!)} calls/s, floor ${fmt(r.floor!)} calls/s; ours / floor ${fmt(r.ratio!, 3)} ` +
          `(runs ${fmt(r.ratioMin!, 3)}–${fmt(r.ratioMax!, 3)}); server CPU per call ours ${fmt(r.oursCpuUs!)} µs, floor ${fmt(r.floorCpuUs!)} µs`,
        `  with a 320 KB recording in each call: ${fmt(r.withRecording!)} calls/s accepted while the downloads run; ` +
          `the downloads drained ${fmt(r.drainMs!)} ms after each round; ${r.stored} recordings stored`,
        `  p99 acknowledgement flat out: ours ${fmt(r.oursP99!)} ms, with recordings ${fmt(r.withRecordingP99!)} ms, floor ` +
          `${fmt(r.floorP99!)} ms; failed requests ${r.failures}`,
        `  p99 acknowledgement at a sustained ${fmt(r.sustainedRate!)} calls/s with recordings (half the rate above): ` +
          `${fmt(r.sustainedP99!)} ms, ${fmt(r.sustainedAccepted!)} calls/s accepted (target < 250 ms; Retell waits 10 s, Vapi 20 s)`,
        `  with a monitor on the agent (each call numbered as it lands, one in ten judged): ${fmt(r.monitored!)} calls/s ` +
          `(${fmt(r.monitored! / r.ours!, 3)} of ours without), p99 ${fmt(r.monitoredP99!)} ms`,
      ].join('\n'),
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
        `  row-ids ${fmt(r.rowIdsRatio!, 2)}x COPY TO STDOUT (target <= 1.5): 1M ids in ${fmt(r.rowIdsMs!)} ms vs ` +
          `COPY (select id ... order by source_row, id) TO STDOUT through the same connection ${fmt(r.copyOutMs!)} ms`,
        `  queueing ${fmt(r.queueRatio!, 2)}x raw UPDATE (target <= 1.5): transcribe of 100k rows in ` +
          `${fmt(r.queueMs!)} ms vs one UPDATE ${fmt(r.rawUpdateMs!)} ms`,
      ].join('\n'),
  },
  {
    name: 'clusters',
    run: () => clusterQuality(),
    print: (r) => {
      const { ks, seeds, perGroup } = REAL_SETTINGS;
      return [
        `clusters: adjusted Rand index of the no-model core vs the naive baseline (one cluster per most ` +
          'frequent content word), same run',
        `  real set (CLINC150 subset, human-written; ${seeds} draws per K of K intents from K domains x ${perGroup} ` +
          `texts; target mean >= 0.85 at K = 6), ${fmt(r.realMs!)} ms per draw:`,
        ...ks.map(
          (k) =>
            `    K = ${k}: mean ${fmt(r[`real.${k}.mean`]!, 3)}, worst ${fmt(r[`real.${k}.worst`]!, 3)} ` +
            `(naive mean ${fmt(r[`real.${k}.naiveMean`]!, 3)}, worst ${fmt(r[`real.${k}.naiveWorst`]!, 3)}); ` +
            `${fmt(r[`real.${k}.clusters`]!, 1)} clusters on average`,
        ),
        `  synthetic set (templated, disjoint vocabularies): ${fmt(r.syntheticAri!, 3)} (naive ` +
          `${fmt(r.syntheticNaive!, 3)}) on ${r.syntheticItems} rationales from ${r.syntheticModes} modes; ` +
          `${r.syntheticClusters} clusters in ${fmt(r.syntheticMs!)} ms`,
      ].join('\n');
    },
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
    name: 'simulation',
    run: () => simulationBench(),
    print: (r) => {
      const { globalLimit, turns, agentMs, personaMs, callMs, runMs, heavyCalls, lightCalls } =
        SIMULATION_SETTINGS;
      const worst = (p: string) =>
        `${fmt(r[`${p}.share`]!, 3)} (${r[`${p}.worstIsLight`] ? 'light' : 'heavy'})`;
      const sum = (k: string) => r[`fair.${k}`]! + r[`fifo.${k}`]!;
      return [
        `simulation: fair vs FIFO (oldest call first, same run), calls of ${turns} turns (agent ${agentMs} ms + ` +
          `persona ${personaMs} ms a turn), global_limit ${globalLimit}: limit ${fmt(r.limitPerSecond!, 2)} calls/s; ` +
          `a heavy tenant's run of ${heavyCalls} calls, then a light tenant's of ${lightCalls}; ${runMs / 1000} s ` +
          'measured per policy (targets: throughput >= 0.9 of limit, worst-tenant share >= 0.9)',
        `  throughput ${fmt(r['fair.throughput']!, 3)} of limit, ${fmt(r['fair.callsPerSecond']!, 2)} calls/s ` +
          `(FIFO ${fmt(r['fifo.throughput']!, 3)}, ${fmt(r['fifo.callsPerSecond']!, 2)} calls/s); ` +
          `slots busy ${fmt(r['fair.occupancy']!, 3)} (FIFO ${fmt(r['fifo.occupancy']!, 3)}), peak ${r['fair.peak']} ` +
          `in flight (FIFO ${r['fifo.peak']}); mean call ` +
          `${fmt(r['fair.callMs']! / 1000, 2)} s for ${callMs / 1000} s of latency (FIFO ${fmt(r['fifo.callMs']! / 1000, 2)} s)`,
        `  worst-tenant share ${worst('fair')} (FIFO ${worst('fifo')})`,
        `  calls completed ${sum('completed')}: ${sum('offScript')} not of exactly ${turns} turns, ` +
          `${sum('failed')} failed; ${r.scored} scored`,
      ].join('\n');
    },
  },
  {
    name: 'voice',
    run: () => voiceBench(),
    print: (r) => {
      const { jitterLimitMs, latencyMs, callerTurns, staggerMs, stopped, ambience } = VOICE_SETTINGS;
      const ms = (k: string) => `${fmt(r[k]!, 1)}`;
      const lines = Array.from({ length: r.steps! }, (_, i) => {
        const s = (k: string) => r[`${i}.${k}`]!;
        return (
          `  N=${String(s('n')).padEnd(2)} lateness p50 ${ms(`${i}.p50`)} / p99 ${ms(`${i}.p99`)} / max ` +
          `${ms(`${i}.max`)} ms${s('p99') > jitterLimitMs ? ' (over)' : ''}; engine CPU ` +
          `${fmt(s('engineMsPerS'), 1)} ms per call-second = ${fmt(s('engineMsPerS') / 10, 2)}% of a core per call ` +
          `(engine process with its audio worker ${fmt(s('processMsPerS'), 1)} ms; doubles' process ${fmt(s('doublesMsPerS'), 1)} ms); ` +
          `memory ${fmt(s('memoryPerCallMb'), 2)} MB per call (peak RSS growth / N)\n` +
          `       ok ${s('ok')}/${s('n')} (${s('onScript')} on script; doubles' loop delay p99 ` +
          `${fmt(s('doublesDelayP99'), 1)} / max ${fmt(s('doublesDelayMax'), 1)} ms); ` +
          `latency error mean ${fmt(s('latencyErrMean'))} ms, max ${fmt(s('latencyErrMax'))} ms ` +
          `(${s('latencyCalls')} calls); call ${fmt(s('callS'), 1)} s, step ${fmt(s('wallS'), 1)} s`
        );
      });
      const why =
        r.stopped === stopped.overTwice
          ? `; stopped: p99 over ${jitterLimitMs} ms at two N in a row`
          : r.stopped === stopped.budget
            ? '; stopped: time budget'
            : r.stopped === stopped.slowStep
              ? '; stopped: a step took over twice as long as the first'
              : '';
      return [
        `voice: N concurrent calls of the real engine (runVoiceCall) against one voice agent double ` +
          `(latency ${latencyMs} ms), ${callerTurns} caller turns a call, started over ${staggerMs / 1000} s, ` +
          `${ambience ? `each with '${ambience}' ambience as a persona with that preset gets it` : 'no ambience'}; ` +
          'the agent double and speech provider in a process of their own (target: caller frame pacing jitter ' +
          `p99 <= ${jitterLimitMs} ms; latency error = |agent_latency_p50_ms - ${latencyMs}|)`,
        `  baseline: the same pacer alone for ${fmt(r.baselineS!, 1)} s: lateness p50 ${ms('baselineP50')} / ` +
          `p99 ${ms('baselineP99')} / max ${ms('baselineMax')} ms`,
        ...lines,
        `  sustained: ${r.sustained} concurrent calls (p99 <= ${jitterLimitMs} ms at every N up to it); ` +
          (r.firstOver
            ? `jitter first exceeds ${jitterLimitMs} ms at N=${r.firstOver}`
            : `jitter never exceeded ${jitterLimitMs} ms up to N=${r[`${r.steps! - 1}.n`]}`) +
          (r.largestPassing !== r.sustained ? `; largest N under it: ${r.largestPassing}` : '') +
          `${why}; ${fmt(r.seconds!)} s in all`,
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
  {
    name: 'cold-start',
    run: () => coldStartBench(),
    print: (r) =>
      [
        `cold-start: spawn -> first 200 (PGlite, pnpm start's script from the build), medians of ${r.runs} runs:`,
        `  ${fmt(r.builtMs!)} ms (max ${fmt(r.builtMaxMs!)}; target <= ${COLD_START_SETTINGS.target}) with an existing ` +
          `data folder vs ${fmt(r.bareMs!)} ms for node -e starting a bare Express server; ratio ${fmt(r.ratio!, 2)}x`,
        `  first start ever (empty data folder: database created and migrated) ${fmt(r.builtFreshMs!)} ms ` +
          `(${fmt(r.freshRatio!, 2)}x); from the sources without a build (tsx) ${fmt(r.sourceMs!)} ms`,
      ].join('\n'),
  },
  {
    name: 'console',
    run: () => consoleBench(),
    print: (r) =>
      [
        `console (Chromium, server on PGlite in this process), medians of ${r.runs} runs:`,
        `  initial JS ${fmt(r.jsKb!, 1)} KiB + CSS ${fmt(r.cssKb!, 1)} KiB gzip = ${fmt(r.budgetRatio! * 100)}% of the ` +
          `${CONSOLE_SETTINGS.budgetKb} KiB budget`,
        `  run page of ${CONSOLE_SETTINGS.calls} calls usable (metrics and first calls drawn) ${fmt(r.runPageMs!)} ms vs ` +
          `the same calls as a static HTML table ${fmt(r.tableMs!)} ms; ratio ${fmt(r.runPageRatio!, 2)}x`,
        `  ${CONSOLE_SETTINGS.callMinutes}-minute stereo call (${fmt(r.wavMb!, 1)} MiB WAV): two-lane waveform drawn ` +
          `${fmt(r.waveformMs!)} ms vs a bare <audio>'s canplay ${fmt(r.audioMs!)} ms; ratio ${fmt(r.waveformRatio!, 2)}x`,
      ].join('\n'),
  },
];

const only = process.argv[2];
for (const bench of BENCHES.filter((b) => !only || b.name === only)) {
  const result = await bench.run();
  console.log(bench.print(result));
}
