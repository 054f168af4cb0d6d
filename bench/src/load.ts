import autocannon from 'autocannon';
import type { Load, Throughput } from './measure.js';

/** What the load generator's process sends back: its figures, or why it could not run. */
export type LoadReport = Omit<Throughput, 'serverCpuUs'> | { error: string };

/**
 * The load generator's process (`measure` forks it): drives the one `Load` it is sent with
 * autocannon and sends back its figures, so the server under test has its process to itself.
 */
process.once('message', async (load: Load) => {
  let report: LoadReport;
  try {
    const result = await autocannon({
      url: load.url,
      headers: load.headers,
      duration: load.seconds,
      connections: load.connections,
    });
    report = {
      requestsPerSecond: result.requests.average,
      requests: result.requests.total,
      p99Ms: result.latency.p99,
      non2xx: result.non2xx,
      errors: result.errors,
    };
  } catch (error) {
    report = { error: String(error) };
  }
  process.send!(report, () => process.disconnect());
});
