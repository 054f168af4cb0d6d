import { httpOverhead } from './http-overhead.js';

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
      `http-overhead: ${fmt(r.subject!)} req/s (API key, workspace-scoped GET by id) vs ${fmt(r.baseline!)} req/s ` +
      `(bare Express + same SELECT); ratio ${fmt(r.ratio!, 3)} (target >= 0.85); ` +
      `max p99 ${fmt(r.subjectP99!)} ms vs ${fmt(r.baselineP99!)} ms; failed requests ${r.failures}`,
  },
];

const only = process.argv[2];
for (const bench of BENCHES.filter((b) => !only || b.name === only)) {
  const result = await bench.run();
  console.log(bench.print(result));
}
