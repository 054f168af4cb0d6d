import type {
  DiarisationError,
  DiarisationSummary,
  DiarisedTranscriptStatus,
  TranscriptTurn,
  VoiceEvent,
  VoiceMeasures,
} from '@voice-eval/contract';
import type { Knex } from 'knex';

export type RowRecord = {
  id: string;
  call_import_id: string;
  conversation_id: string;
  source_row: number;
  parameters: Record<string, string | null>;
  recording_url: string | null;
  recording_storage_key: string | null;
  source_transcript: string | null;
  diarised_transcript: TranscriptTurn[] | null;
  diarised_transcript_status: DiarisedTranscriptStatus | null;
  diarised_transcript_error: DiarisationError | null;
  voice_measures: VoiceMeasures | null;
  voice_events: VoiceEvent[] | null;
  diarisation_id: string | null;
  lease_owner: string | null;
  lease_expires_at: Date | null;
  attempts: number;
  created_at: Date;
  updated_at: Date;
};

/** A row ready to insert. */
export type RowInput = {
  conversation_id: string;
  source_row: number;
  parameters: Record<string, string | null>;
  recording_url: string | null;
  recording_storage_key: string | null;
  source_transcript: string | null;
};

/** Row filters of the import detail and the row-ids listing. */
export type RowFilters = { q?: string; diarised_status?: DiarisedTranscriptStatus };

/** Rows a bulk action targets: every row of the import, or the listed ids. */
export type RowTarget = { callImportId: string; rowIds: readonly string[] | null };

/** Columns the wire's row is built from (not the lease bookkeeping). */
export const ROW_COLUMNS = [
  'id',
  'call_import_id',
  'conversation_id',
  'source_row',
  'parameters',
  'recording_url',
  'recording_storage_key',
  'source_transcript',
  'diarised_transcript',
  'diarised_transcript_status',
  'diarised_transcript_error',
  'voice_measures',
  'voice_events',
  'created_at',
  'updated_at',
] as const;

const escapeLike = (text: string) => text.replace(/[\\%_]/g, (c) => `\\${c}`);

/** The import's rows matching the filters, unordered (`q`: case-insensitive substring of conversation_id). */
export const rowsQuery = (db: Knex, callImportId: string, filters: RowFilters) => {
  const base = db('call_import_rows').where('call_import_id', callImportId);
  if (filters.q) base.whereILike('conversation_id', `%${escapeLike(filters.q)}%`);
  if (filters.diarised_status) base.where('diarised_transcript_status', filters.diarised_status);
  return base;
};

/** Rows per diarisation status, and failed rows per error code, over every row of the import. */
export const diarisationSummary = async (db: Knex, callImportId: string): Promise<DiarisationSummary> => {
  const [statuses, codes] = await Promise.all([
    db('call_import_rows')
      .where('call_import_id', callImportId)
      .whereNotNull('diarised_transcript_status')
      .groupBy('diarised_transcript_status')
      .select('diarised_transcript_status as status', db.raw('count(*)::int as n')) as Promise<
      Array<{ status: DiarisedTranscriptStatus; n: number }>
    >,
    db('call_import_rows')
      .where({ call_import_id: callImportId, diarised_transcript_status: 'failed' })
      .groupByRaw("diarised_transcript_error->>'code'")
      .select(db.raw("diarised_transcript_error->>'code' as code"), db.raw('count(*)::int as n')) as Promise<
      Array<{ code: DiarisationError['code'] | null; n: number }>
    >,
  ]);
  const summary: DiarisationSummary = { pending: 0, running: 0, completed: 0, failed: 0, errors_by_code: {} };
  for (const { status, n } of statuses) summary[status] = n;
  for (const { code, n } of codes) if (code) summary.errors_by_code[code] = n;
  return summary;
};

/** One row of the import, with the wire's columns (undefined when the import has no such row). */
export const findRow = (db: Knex, callImportId: string, rowId: string) =>
  db('call_import_rows').where({ call_import_id: callImportId, id: rowId }).first(ROW_COLUMNS) as Promise<
    Pick<RowRecord, (typeof ROW_COLUMNS)[number]> | undefined
  >;

/** Source order: the order rows had in the file. */
export const SOURCE_ORDER = [{ column: 'source_row' }, { column: 'id' }];

/** Ids per query of the row-ids document. */
export const ROW_IDS_CHUNK = 50_000;

/**
 * The row-ids document (`{"ids": [...], "total": n}`, ids in source order) as text chunks to send
 * as they come. Postgres writes each chunk of up to `chunkSize` ids as one string (a chunk crosses
 * the driver as one value, not a row object per id), and the next chunk is queried while this one
 * is sent. Chunks follow each other by keyset on (source_row, id), so no statement holds the
 * database for the whole document; `total` counts the ids sent. A row added or deleted while the
 * document is written appears or not depending on where it falls.
 */
export async function* rowIdsDocument(
  db: Knex,
  callImportId: string,
  filters: RowFilters,
  chunkSize = ROW_IDS_CHUNK,
): AsyncGenerator<string> {
  let total = 0;
  let after: { source_row: number; id: string } | null = null;
  // the opening goes out with the first chunk, so the first query runs before the first byte
  let opening = '{"ids":[';
  for (;;) {
    const ordered = rowsQuery(db, callImportId, filters)
      .select('id', 'source_row')
      .orderBy(SOURCE_ORDER)
      .limit(chunkSize);
    if (after) ordered.whereRaw('(source_row, id) > (?, ?::uuid)', [after.source_row, after.id]);
    // array_agg and string_agg keep the order of the ordered subquery (no parallel combine step)
    const [chunk] = (await db.from(ordered.as('s')).select(
      db.raw(`string_agg(s.id::text, '","') as ids, count(*)::int as n,
              (array_agg(s.source_row))[count(*)::int] as last_row,
              (array_agg(s.id))[count(*)::int] as last_id`),
    )) as Array<{ ids: string | null; n: number; last_row: number; last_id: string }>;
    if (chunk?.ids) {
      yield `${opening}${total > 0 ? ',' : ''}"${chunk.ids}"`;
      opening = '';
      total += chunk.n;
    }
    if (!chunk || chunk.n < chunkSize) break;
    after = { source_row: chunk.last_row, id: chunk.last_id };
  }
  yield `${opening}],"total":${total}}`;
}

/**
 * Inserts rows in one statement from a JSON document (one bound parameter whatever the batch
 * size). A conversation id already in the import is skipped (`on conflict do nothing`, which
 * also holds between concurrent writers); returns the source rows that were inserted.
 */
export const insertRows = async (
  db: Knex,
  callImportId: string,
  rows: readonly RowInput[],
): Promise<Set<number>> => {
  const result = await db.raw(
    `insert into call_import_rows
       (call_import_id, conversation_id, source_row, parameters, recording_url, recording_storage_key, source_transcript)
     select ?::uuid, r.conversation_id, r.source_row, r.parameters, r.recording_url, r.recording_storage_key, r.source_transcript
       from json_to_recordset(?::json) as r(conversation_id text, source_row int, parameters jsonb,
            recording_url text, recording_storage_key text, source_transcript text)
     on conflict (call_import_id, conversation_id) do nothing
     returning source_row`,
    [callImportId, JSON.stringify(rows)],
  );
  return new Set((result.rows as Array<{ source_row: number }>).map((r) => r.source_row));
};

/** Restricts a query on `call_import_rows` to a target (ids bound as one JSON array). */
export const whereTarget = (query: Knex.QueryBuilder, target: RowTarget, alias = 'call_import_rows') => {
  query.where(`${alias}.call_import_id`, target.callImportId);
  if (target.rowIds) {
    query.whereRaw(`??.id in (select value::uuid from json_array_elements_text(?::json))`, [
      alias,
      JSON.stringify(target.rowIds),
    ]);
  }
  return query;
};

/** Keys of the recordings uploaded with an import (for deleting the blobs). */
export const recordingKeys = (db: Knex, callImportId: string): Promise<string[]> =>
  db('call_import_rows')
    .where('call_import_id', callImportId)
    .whereNotNull('recording_storage_key')
    .pluck('recording_storage_key') as unknown as Promise<string[]>;

/** Rows of a simulation import, inserted in one statement; returns each row's id by conversation id. */
export const insertSimulatedRows = async (
  db: Knex,
  callImportId: string,
  rows: ReadonlyArray<{ conversation_id: string; source_row: number; parameters: Record<string, string> }>,
  diarisationId: string | null,
): Promise<Map<string, string>> => {
  const result = await db.raw(
    `insert into call_import_rows (call_import_id, conversation_id, source_row, parameters, diarisation_id)
     select ?::uuid, r.conversation_id, r.source_row, r.parameters, ?::uuid
       from json_to_recordset(?::json) as r(conversation_id text, source_row int, parameters jsonb)
     returning id, conversation_id`,
    [callImportId, diarisationId, JSON.stringify(rows)],
  );
  return new Map(
    (result.rows as Array<{ id: string; conversation_id: string }>).map((r) => [r.conversation_id, r.id]),
  );
};

/** The columns that queue a row for diarisation afresh: pending, no lease, no attempt, no outcome. */
export const queuedForDiarisation = (now: Date) => ({
  diarised_transcript_status: 'pending',
  queued_at: now,
  attempts: 0,
  lease_owner: null,
  lease_expires_at: null,
  diarised_transcript: null,
  diarised_transcript_error: null,
  updated_at: now,
});

/**
 * Stores a simulated voice call's recording on its row and queues the row for diarisation with the
 * diarisation it was created with (by channel), as a transcribe request would.
 */
export const queueRecordedCall = (db: Knex, rowId: string, recordingKey: string, now: Date) =>
  db('call_import_rows')
    .where({ id: rowId })
    .whereNotNull('diarisation_id')
    .update({ recording_storage_key: recordingKey, ...queuedForDiarisation(now) });

/** Writes a simulated call's transcript as the row's completed diarised transcript (and its recording). */
export const writeTranscript = (
  db: Knex,
  rowId: string,
  turns: unknown,
  now: Date,
  recordingKey: string | null,
) =>
  db('call_import_rows')
    .where({ id: rowId })
    .update({
      ...(recordingKey ? { recording_storage_key: recordingKey } : {}),
      diarised_transcript: JSON.stringify(turns),
      diarised_transcript_status: 'completed',
      diarised_transcript_error: null,
      updated_at: now,
    });

/** Rows of the workspace's call imports among `ids`, with their conversation and import. */
export const visibleRows = (
  db: Knex,
  scope: { organizationId: string; workspaceId: string },
  ids: readonly string[],
): Promise<Array<{ id: string; call_import_id: string; conversation_id: string }>> =>
  ids.length === 0
    ? Promise.resolve([])
    : db('call_import_rows as r')
        .join('call_imports as ci', 'ci.id', 'r.call_import_id')
        .where({ 'ci.organization_id': scope.organizationId, 'ci.workspace_id': scope.workspaceId })
        .whereIn('r.id', [...new Set(ids)])
        .select('r.id', 'r.call_import_id', 'r.conversation_id');

/** Every row of an import, in source order: its id and conversation. */
export const rowRefsOf = (
  db: Knex,
  callImportId: string,
): Promise<Array<{ id: string; call_import_id: string; conversation_id: string }>> =>
  db('call_import_rows')
    .where({ call_import_id: callImportId })
    .orderBy(SOURCE_ORDER)
    .select('id', 'call_import_id', 'conversation_id');
