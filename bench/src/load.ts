import { createHmac, randomUUID } from 'node:crypto';
import autocannon, { type Request as LoadRequest } from 'autocannon';
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
    const retell = load.retell;
    const result = await autocannon({
      url: load.url,
      headers: load.headers,
      duration: load.seconds,
      connections: load.connections,
      ...(load.rate ? { overallRate: load.rate } : {}),
      ...(retell
        ? {
            requests: [
              {
                method: 'POST',
                // a new call each time, signed as Retell signs (built here, so the server's process only receives)
                setupRequest: (request: LoadRequest): LoadRequest => {
                  const body = retellBody(randomUUID(), retell.recordingUrl);
                  const at = Date.now();
                  const digest = createHmac('sha256', retell.key)
                    .update(body + String(at))
                    .digest('hex');
                  return {
                    ...request,
                    body,
                    headers: {
                      'content-type': 'application/json',
                      'x-retell-signature': `v=${at},d=${digest}`,
                    },
                  };
                },
              },
            ],
          }
        : {}),
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

/** A Retell `call_ended` of a two-turn call, as the platform sends it. */
const retellBody = (callId: string, recordingUrl: string | null) =>
  JSON.stringify({
    event: 'call_ended',
    call: {
      call_type: 'phone_call',
      call_id: callId,
      agent_id: 'agent_bench',
      call_status: 'ended',
      start_timestamp: 1714608475945,
      end_timestamp: 1714608491736,
      duration_ms: 15791,
      disconnection_reason: 'user_hangup',
      transcript_object: [
        { role: 'agent', content: 'Hi, how can I help?', words: [{ word: 'Hi,', start: 0.7, end: 0.9 }] },
        { role: 'user', content: 'Book a table at 7 PM.', words: [{ word: 'Book', start: 2.3, end: 3.6 }] },
      ],
      ...(recordingUrl ? { recording_multi_channel_url: recordingUrl } : {}),
    },
  });
