import autocannon from 'autocannon';

export type Load = { url: string; headers?: Record<string, string>; seconds: number; connections: number };

export type Throughput = { requestsPerSecond: number; p99Ms: number; non2xx: number; errors: number };

/** Drives one URL with autocannon for a fixed time and reports mean throughput and p99 latency. */
export const measure = async (load: Load): Promise<Throughput> => {
  const result = await autocannon({
    url: load.url,
    headers: load.headers,
    duration: load.seconds,
    connections: load.connections,
  });
  return {
    requestsPerSecond: result.requests.average,
    p99Ms: result.latency.p99,
    non2xx: result.non2xx,
    errors: result.errors,
  };
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
  const totals = { subject: 0, baseline: 0, subjectP99: 0, baselineP99: 0, failures: 0 };
  for (let i = 0; i < rounds; i++) {
    const b = await measure(baseline);
    const s = await measure(subject);
    totals.subject += s.requestsPerSecond;
    totals.baseline += b.requestsPerSecond;
    totals.subjectP99 = Math.max(totals.subjectP99, s.p99Ms);
    totals.baselineP99 = Math.max(totals.baselineP99, b.p99Ms);
    totals.failures += s.non2xx + s.errors + b.non2xx + b.errors;
  }
  return {
    ...totals,
    subject: totals.subject / rounds,
    baseline: totals.baseline / rounds,
    ratio: totals.subject / totals.baseline,
  };
};
