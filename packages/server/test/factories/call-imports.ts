import type { CallImport, CallImportCreateParams, CallImportSchema, RequestBody } from '@voice-eval/sdk';
import type { Harness, Headers, Reply, Tenant } from '../harness.js';
import { toCsv } from './call-import-files.js';
import { makeTag } from './tags.js';

/**
 * Helpers shared by the call-import tests: schemas, imports and AI providers made through the SDK
 * as the tenant's OWNER, and raw multipart uploads for the tests of the upload itself.
 */

/** The parameters of a call-import schema, as the create body takes them. */
export type SchemaParameters = RequestBody<'callImportSchemas', 'create'>['parameters'];

/** A schema with one parameter of most types. */
export const PARAMETERS: SchemaParameters = [
  { name: 'conversation_id', type: 'conversation_id', is_required: true },
  { name: 'agent', type: 'string', is_required: true },
  { name: 'score', type: 'number' },
  { name: 'recording', type: 'recording_url' },
  { name: 'transcript', type: 'transcript' },
  { name: 'called_at', type: 'datetime' },
];

/** A call-import schema of the tenant (through the SDK as its OWNER): a unique name and `PARAMETERS` unless overridden. */
export const makeSchema = async (
  _h: Harness,
  tenant: Tenant,
  overrides: Partial<RequestBody<'callImportSchemas', 'create'>> = {},
): Promise<CallImportSchema> => {
  const client = await tenant.client('OWNER');
  return client.callImportSchemas.create({
    name: `Schema ${Math.random().toString(36).slice(2)}`,
    parameters: PARAMETERS,
    ...overrides,
  });
};

/** A call-import schema of the tenant with these parameters; returns its id. */
export const createSchema = async (
  h: Harness,
  tenant: Tenant,
  parameters: SchemaParameters = PARAMETERS,
): Promise<string> => (await makeSchema(h, tenant, { parameters })).id;

/** A tag of the tenant named `name`; returns its id. */
export const createTag = async (h: Harness, tenant: Tenant, name: string): Promise<string> =>
  (await makeTag(h, tenant, { name })).id;

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

/** What an import takes besides its schema and its file (dataset, tags, ...). */
export type ImportFields = Omit<CallImportCreateParams, 'schema_id' | 'file' | 'files'>;

/** Imports a CSV built from `rows` (as `calls.csv`) through the SDK as the tenant's OWNER. */
export const importCsv = async (
  _h: Harness,
  tenant: Tenant,
  schemaId: string,
  rows: ReadonlyArray<ReadonlyArray<string | number>>,
  fields: ImportFields = {},
): Promise<CallImport> => {
  const client = await tenant.client('OWNER');
  const file = new File([toCsv(rows)], 'calls.csv', { type: 'text/csv' });
  return client.callImports.create({ schema_id: schemaId, file, ...fields });
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

/** Creates the tenant's default AI provider pointing at an OpenAI-compatible double; returns its id. */
export const createAiProvider = async (
  _h: Harness,
  tenant: Tenant,
  baseUrl: string,
  apiKey = 'sk-double',
): Promise<string> => {
  const client = await tenant.client('OWNER');
  const provider = await client.aiProviders.create({
    provider: 'openai',
    name: 'Double',
    api_key: apiKey,
    endpoint_url: baseUrl,
    is_default: true,
  });
  return provider.id;
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
