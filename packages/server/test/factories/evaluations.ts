import type { CallImportSchema, Evaluation, Metric, RequestBody } from '@voice-eval/sdk';
import { expect } from 'vitest';
import { clientWith, type Harness, type Headers, type Tenant } from '../harness.js';

/**
 * Test factories for evaluations and what they reference, made through the SDK acting with
 * `headers` (a role's, or another workspace's).
 */

let seq = 0;
const unique = (label: string) => `${label} ${++seq}-${Math.random().toString(36).slice(2, 6)}`;

/** A call row of a fixture import: its id and, unless null, its source transcript. */
export type CallRowInput = { conversation_id: string; transcript: string | null };

const csvCell = (value: string) => `"${value.replaceAll('"', '""')}"`;

/** A call-import schema with a conversation id and a transcript column. */
const makeSchema = (h: Harness, headers: Headers): Promise<CallImportSchema> =>
  clientWith(h.url, headers).callImportSchemas.create({
    name: unique('Calls'),
    parameters: [
      { name: 'conversation_id', type: 'conversation_id' },
      { name: 'transcript', type: 'transcript' },
    ],
  });

/** Uploads a CSV import of these calls (in the workspace `headers` select) and returns it with its row ids by conversation id. */
export const makeImport = async (
  h: Harness,
  headers: Headers,
  rows: readonly CallRowInput[],
): Promise<{ id: string; rowIds: Map<string, string> }> => {
  const client = clientWith(h.url, headers);
  const schema = await makeSchema(h, headers);
  const csv = [
    'conversation_id,transcript',
    ...rows.map((r) => `${csvCell(r.conversation_id)},${csvCell(r.transcript ?? '')}`),
  ].join('\n');
  const created = await client.callImports.create({
    schema_id: schema.id,
    file: new File([csv], 'calls.csv', { type: 'text/csv' }),
  });
  const detail = await client.callImports.get(created.id, { row_limit: 5000 });
  return { id: created.id, rowIds: new Map(detail.rows.map((r) => [r.conversation_id, r.id])) };
};

/** `n` calls with transcripts carrying `row=<conversation id>` (the judge double's tag). */
export const callRows = (n: number, prefix = 'call'): CallRowInput[] =>
  Array.from({ length: n }, (_, i) => ({
    conversation_id: `${prefix}-${i + 1}`,
    transcript: `Agent: Hello, how can I help? Caller: I need a refund. row=${prefix}-${i + 1}`,
  }));

/** An active metric of the workspace `headers` select. */
export const makeMetric = (
  h: Harness,
  headers: Headers,
  overrides: Partial<RequestBody<'metrics', 'create'>> = {},
): Promise<Metric> => clientWith(h.url, headers).metrics.create({ name: unique('Metric'), ...overrides });

/** Starts an evaluation (202, `pending`). */
export const startEvaluation = (
  h: Harness,
  headers: Headers,
  body: RequestBody<'evaluations', 'create'>,
): Promise<Evaluation> => clientWith(h.url, headers).evaluations.create(body);

/** Polls an evaluation until it leaves pending and running. */
export const settled = async (h: Harness, headers: Headers, id: string): Promise<Evaluation> => {
  const client = clientWith(h.url, headers);
  let evaluation: Evaluation | undefined;
  await expect
    .poll(
      async () => {
        evaluation = await client.evaluations.get(id);
        return evaluation.status;
      },
      { timeout: 20_000, interval: 50 },
    )
    .toMatch(/^(completed|failed|cancelled)$/);
  return evaluation!;
};

/** The tenant's member headers, for the common case. */
export const member = (t: Tenant) => t.as('MEMBER');
