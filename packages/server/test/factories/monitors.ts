import type { Monitor, MonitorAlert } from '@voice-eval/contract';
import { expect } from 'vitest';
import type { Harness, Headers } from '../harness.js';

/** Creates a monitor and expects 201. */
export const makeMonitor = async (h: Harness, headers: Headers, body: Record<string, unknown>) => {
  const reply = await h.request<Monitor>('POST', '/api/v1/monitors', { headers, body });
  expect(reply.status, JSON.stringify(reply.body)).toBe(201);
  return reply.body;
};

/** Submits a call of `agentId` with a two-turn transcript the judge double reads (`row=<id>`). */
export const submitCall = async (
  h: Harness,
  headers: Headers,
  agentId: string,
  id: string,
  extra: Record<string, unknown> = {},
) => {
  const reply = await h.request('POST', '/api/v1/production-calls', {
    headers,
    body: {
      agent_id: agentId,
      external_call_id: id,
      transcript: [
        { role: 'agent', text: 'Thanks for calling, how can I help?' },
        { role: 'user', text: `I need my order status. row=${id}` },
      ],
      ...extra,
    },
  });
  expect(reply.status, JSON.stringify(reply.body)).toBe(202);
  return reply.body as { production_call: { id: string }; sampled: boolean };
};

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

/** The monitor's alerts, newest first. */
export const alertsOf = async (h: Harness, headers: Headers, monitorId: string) => {
  const reply = await h.request('GET', `/api/v1/monitors/${monitorId}/alerts?page_size=100`, { headers });
  expect(reply.status, JSON.stringify(reply.body)).toBe(200);
  return reply.body.items as MonitorAlert[];
};
