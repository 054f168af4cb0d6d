import type { Monitor, MonitorAlert, ProductionCallSubmitResult, RequestBody } from '@voice-eval/sdk';
import { expect } from 'vitest';
import { clientWith, type Harness, type Headers } from '../harness.js';

/** Test factories for monitors and the production calls they see, made through the SDK acting with `headers`. */

/** Creates a monitor. */
export const makeMonitor = (
  h: Harness,
  headers: Headers,
  body: RequestBody<'monitors', 'create'>,
): Promise<Monitor> => clientWith(h.url, headers).monitors.create(body);

/** Submits a call of `agentId` (202) with a two-turn transcript the judge double reads (`row=<id>`). */
export const submitCall = (
  h: Harness,
  headers: Headers,
  agentId: string,
  id: string,
  extra: Partial<RequestBody<'productionCalls', 'submit'>> = {},
): Promise<ProductionCallSubmitResult> =>
  clientWith(h.url, headers).productionCalls.submit({
    agent_id: agentId,
    external_call_id: id,
    transcript: [
      { role: 'agent', text: 'Thanks for calling, how can I help?' },
      { role: 'user', text: `I need my order status. row=${id}` },
    ],
    ...extra,
  });

/** Polls until every call the monitor has seen has its outcome (none waiting or being scored). */
export const monitorSettled = async (h: Harness, monitorId: string, calls: number) => {
  await expect
    .poll(
      async () => {
        const rows = await h.db('monitor_calls').where({ monitor_id: monitorId }).select('state');
        return rows.length === calls && rows.every((r: { state: string }) => r.state === 'done');
      },
      { timeout: 30_000, interval: 50 },
    )
    .toBe(true);
};

/** The monitor's alerts, newest first (the first 100). */
export const alertsOf = async (h: Harness, headers: Headers, monitorId: string): Promise<MonitorAlert[]> =>
  (await clientWith(h.url, headers).monitors.alerts(monitorId, { page_size: 100 })).items;
