import { httpOverhead } from './src/http-overhead.js';
const r = await httpOverhead({ seconds: 2, rounds: 8 });
console.log(process.env.BENCH_DATABASE_URL ? 'pg' : 'pglite', r.subject.toFixed(0), r.baseline.toFixed(0), r.ratio.toFixed(3));
process.exit(0);
