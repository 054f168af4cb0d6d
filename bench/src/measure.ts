import { fork } from 'node:child_process';
import { once } from 'node:events';
import type { LoadReport } from './load.js';

export type Load = { url: string; headers?: Record<string, string>; seconds: number; connections: number };

export type Throughput = {
  requestsPerSecond: number;
  requests: number;
  p99Ms: number;
  non2xx: number;
  errors: number;
  /** CPU time (user + system) this process spent per request served: the server's, when it runs here. */
  serverCpuUs: number;
};

/**
 * Drives one URL with autocannon for a fixed time and reports mean throughput and p99 latency.
 * autocannon runs in a child process (`load.ts`): in this one it would share the event loop, and
 * the CPU, of the server it measures.
 */
export const measure = async (load: Load): Promise<Throughput> => {
  const child = fork(new URL('./load.ts', import.meta.url));
  const cpu = process.cpuUsage();
  child.send(load);
  const result = await new Promise<LoadReport>((resolve, reject) => {
    child.once('message', resolve);
    child.once('exit', (code, signal) =>
      reject(new Error(`${load.url}: the load generator exited (${signal ?? code}) without a report`)),
    );
  });
  const used = process.cpuUsage(cpu);
  if (child.exitCode === null) await once(child, 'exit');
  if ('error' in result) throw new Error(`${load.url}: the load generator failed: ${result.error}`);
  return { ...result, serverCpuUs: (used.user + used.system) / Math.max(1, result.requests) };
};

/**
 * Measures `subject` and `baseline` in alternating rounds (so drift on a shared machine hits both)
 * and returns the mean throughput of each over the rounds, and their ratio. A first, unmeasured
 * round warms both up, so neither pays for JIT compilation in the figures.
 */
export const compare = async (subject: Load, baseline: Load, rounds: number) => {
  const warmUp = { seconds: Math.min(2, subject.seconds) };
  await measure({ ...baseline, ...warmUp });
  await measure({ ...subject, ...warmUp });
  const totals = {
    subject: 0,
    baseline: 0,
    subjectCpuUs: 0,
    baselineCpuUs: 0,
    subjectP99: 0,
    baselineP99: 0,
    failures: 0,
    /** the lowest and highest ratio of one round's pair: how far the machine's noise reaches */
    roundRatioMin: Number.POSITIVE_INFINITY,
    roundRatioMax: 0,
  };
  for (let i = 0; i < rounds; i++) {
    const b = await measure(baseline);
    const s = await measure(subject);
    totals.subject += s.requestsPerSecond;
    totals.baseline += b.requestsPerSecond;
    totals.roundRatioMin = Math.min(totals.roundRatioMin, s.requestsPerSecond / b.requestsPerSecond);
    totals.roundRatioMax = Math.max(totals.roundRatioMax, s.requestsPerSecond / b.requestsPerSecond);
    totals.subjectCpuUs += s.serverCpuUs;
    totals.baselineCpuUs += b.serverCpuUs;
    totals.subjectP99 = Math.max(totals.subjectP99, s.p99Ms);
    totals.baselineP99 = Math.max(totals.baselineP99, b.p99Ms);
    totals.failures += s.non2xx + s.errors + b.non2xx + b.errors;
  }
  return {
    ...totals,
    subject: totals.subject / rounds,
    baseline: totals.baseline / rounds,
    subjectCpuUs: totals.subjectCpuUs / rounds,
    baselineCpuUs: totals.baselineCpuUs / rounds,
    ratio: totals.subject / totals.baseline,
  };
};
