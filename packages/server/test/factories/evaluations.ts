import type { Evaluation } from '@voice-eval/contract';
import { expect } from 'vitest';
import type { Harness, Headers, Tenant } from '../harness.js';

/** Test factories for evaluations and what they reference, made through the public API. */

let seq = 0;
const unique = (label: string) => `${label} ${++seq}-${Math.random().toString(36).slice(2, 6)}`;

/** A call row of a fixture import: its id and, unless null, its source transcript. */
export type CallRowInput = { conversation_id: string; transcript: string | null };

const csvCell = (value: string) => `"${value.replaceAll('"', '""')}"`;

/** A call-import schema with a conversation id and a transcript column. */
export const makeSchema = async (h: Harness, headers: Headers) => {
  const reply = await h.request('POST', '/api/v1/call-import-schemas', {
    headers,
    body: {
      name: unique('Calls'),
      parameters: [
        { name: 'conversation_id', type: 'conversation_id' },
        { name: 'transcript', type: 'transcript' },
      ],
    },
  });
  expect(reply.status, JSON.stringify(reply.body)).toBe(201);
  return reply.body as { id: string };
};

/** Uploads a CSV import of these calls (in the workspace `headers` select) and returns it with its row ids by conversation id. */
export const makeImport = async (h: Harness, headers: Headers, rows: readonly CallRowInput[]) => {
  const schema = await makeSchema(h, headers);
  const csv = [
    'conversation_id,transcript',
    ...rows.map((r) => `${csvCell(r.conversation_id)},${csvCell(r.transcript ?? '')}`),
  ].join('\n');
  const form = new FormData();
  form.append('schema_id', schema.id);
  form.append('file', new File([csv], 'calls.csv', { type: 'text/csv' }));
  const res = await fetch(`${h.url}/api/v1/call-imports`, { method: 'POST', headers, body: form });
  const created = (await res.json()) as { id: string };
  expect(res.status, JSON.stringify(created)).toBe(201);
  const ids = await h.request('GET', `/api/v1/call-imports/${created.id}?row_limit=5000`, { headers });
  const rowIds = new Map<string, string>(
    (ids.body.rows as Array<{ id: string; conversation_id: string }>).map((r) => [r.conversation_id, r.id]),
  );
  return { id: created.id, rowIds };
};

/** `n` calls with transcripts carrying `row=<conversation id>` (the judge double's tag). */
export const callRows = (n: number, prefix = 'call'): CallRowInput[] =>
  Array.from({ length: n }, (_, i) => ({
    conversation_id: `${prefix}-${i + 1}`,
    transcript: `Agent: Hello, how can I help? Caller: I need a refund. row=${prefix}-${i + 1}`,
  }));

/** An active metric of the workspace `headers` select. */
export const makeMetric = async (h: Harness, headers: Headers, overrides: Record<string, unknown> = {}) => {
  const reply = await h.request('POST', '/api/v1/metrics', {
    headers,
    body: { name: unique('Metric'), ...overrides },
  });
  expect(reply.status, JSON.stringify(reply.body)).toBe(201);
  return reply.body as { id: string; name: string };
};

/** Starts an evaluation and expects 202. */
export const startEvaluation = async (h: Harness, headers: Headers, body: Record<string, unknown>) => {
  const reply = await h.request('POST', '/api/v1/evaluations', { headers, body });
  expect(reply.status, JSON.stringify(reply.body)).toBe(202);
  return reply.body as { id: string; total_rows: number; status: string };
};

/** Polls an evaluation until it leaves pending and running. */
export const settled = async (h: Harness, headers: Headers, id: string) => {
  let body = {} as Evaluation;
  await expect
    .poll(
      async () => {
        body = (await h.request<Evaluation>('GET', `/api/v1/evaluations/${id}`, { headers })).body;
        return body.status;
      },
      { timeout: 20_000, interval: 50 },
    )
    .toMatch(/^(completed|failed|cancelled)$/);
  return body;
};

/** The tenant's member headers, for the common case. */
export const member = (t: Tenant) => t.as('MEMBER');
