import type { CallImport, CallImportSchemaParameterInput } from '@voice-eval/contract';
import { expect } from 'vitest';
import type { Harness, Headers, Reply, Tenant } from '../harness.js';
import { toCsv } from './call-import-files.js';

/** Helpers shared by the call-import tests: schemas, multipart uploads, AI providers. */

/** A schema with one parameter of most types. */
export const PARAMETERS: Array<Partial<CallImportSchemaParameterInput> & { name: string; type: string }> = [
  { name: 'conversation_id', type: 'conversation_id', is_required: true },
  { name: 'agent', type: 'string', is_required: true },
  { name: 'score', type: 'number' },
  { name: 'recording', type: 'recording_url' },
  { name: 'transcript', type: 'transcript' },
  { name: 'called_at', type: 'datetime' },
];

export const createSchema = async (
  h: Harness,
  tenant: Tenant,
  parameters: Array<{ name: string; type: string; is_required?: boolean }> = PARAMETERS,
  headers?: Headers,
): Promise<string> => {
  const reply = await h.request('POST', '/api/v1/call-import-schemas', {
    headers: headers ?? (await tenant.as('OWNER')),
    body: { name: `Schema ${Math.random().toString(36).slice(2)}`, parameters },
  });
  expect(reply.status, JSON.stringify(reply.body)).toBe(201);
  return reply.body.id;
};

export const createTag = async (h: Harness, tenant: Tenant, name: string): Promise<string> => {
  const reply = await h.request('POST', '/api/v1/tags', {
    headers: await tenant.as('OWNER'),
    body: { name },
  });
  expect(reply.status, JSON.stringify(reply.body)).toBe(201);
  return reply.body.id;
};

/** A file part of a multipart upload. */
export type FilePart = { field: 'file' | 'files'; name: string; bytes: Uint8Array | string; type?: string };

export const csvPart = (
  rows: ReadonlyArray<ReadonlyArray<string | number>>,
  name = 'calls.csv',
): FilePart => ({
  field: 'file',
  name,
  bytes: toCsv(rows),
  type: 'text/csv',
});

/** POST /call-imports as multipart/form-data (fields repeated for arrays). */
export const upload = async (
  h: Pick<Harness, 'url'>,
  headers: Headers,
  fields: Record<string, string | string[]>,
  files: FilePart[],
  path = '/api/v1/call-imports',
): Promise<Reply> => {
  const form = new FormData();
  for (const [name, value] of Object.entries(fields)) for (const v of [value].flat()) form.append(name, v);
  for (const f of files)
    form.append(f.field, new File([f.bytes as BlobPart], f.name, { type: f.type ?? '' }));
  const res = await fetch(`${h.url}${path}`, { method: 'POST', headers, body: form });
  const text = await res.text();
  let body: unknown = text;
  try {
    body = text ? JSON.parse(text) : undefined;
  } catch {}
  return { status: res.status, headers: res.headers, body };
};

/** Uploads a CSV built from `rows` and expects 201. */
export const importCsv = async (
  h: Harness,
  tenant: Tenant,
  schemaId: string,
  rows: ReadonlyArray<ReadonlyArray<string | number>>,
  fields: Record<string, string | string[]> = {},
): Promise<CallImport> => {
  const reply = await upload(h, await tenant.as('OWNER'), { schema_id: schemaId, ...fields }, [
    csvPart(rows),
  ]);
  expect(reply.status, JSON.stringify(reply.body)).toBe(201);
  return reply.body;
};

/** Rows for the default schema: `conversation_id, agent, recording, transcript`. */
export const callRows = (
  n: number,
  cell: (i: number) => { recording?: string; transcript?: string } = () => ({}),
  prefix = 'conv',
) => [
  ['conversation_id', 'agent', 'recording', 'transcript'],
  ...Array.from({ length: n }, (_, i) => {
    const extra = cell(i);
    return [`${prefix}-${i + 1}`, 'Ava', extra.recording ?? '', extra.transcript ?? ''];
  }),
];

/** Creates the tenant's default AI provider pointing at an OpenAI-compatible double. */
export const createAiProvider = async (h: Harness, tenant: Tenant, baseUrl: string, apiKey = 'sk-double') => {
  const reply = await h.request('POST', '/api/v1/aiproviders', {
    headers: await tenant.as('OWNER'),
    body: { provider: 'openai', name: 'Double', api_key: apiKey, endpoint_url: baseUrl, is_default: true },
  });
  expect(reply.status, JSON.stringify(reply.body)).toBe(201);
  return reply.body.id as string;
};

/** The import's stored completed/failed counters, and the same counts taken from its rows. */
export const countersOf = async (h: Harness, id: string) => {
  const stored = await h.db('call_imports').where({ id }).first('completed_rows', 'failed_rows');
  const [counted] = await h
    .db('call_import_rows')
    .where('call_import_id', id)
    .select(
      h.db.raw("count(*) filter (where diarised_transcript_status = 'completed')::int as completed_rows"),
      h.db.raw("count(*) filter (where diarised_transcript_status = 'failed')::int as failed_rows"),
    );
  return { stored, counted };
};

/** Transcription settings the OpenAI-compatible double answers. */
export const STT = { stt_provider: 'openai', stt_model: 'whisper-1', diarization_llm_model: 'gpt-4o-mini' };

/** POSTs an action on an import (`transcribe`, `cancel-diarisation`, ...) as a MEMBER. */
export const postAction = async (h: Harness, id: string, action: string, body: unknown) =>
  h.request('POST', `/api/v1/call-imports/${id}/${action}`, { headers: await h.as('MEMBER'), body });

/** The import's rows in source order, straight from the database. */
export const rowsOf = (h: Harness, id: string) =>
  h.db('call_import_rows').where('call_import_id', id).orderBy('source_row');
