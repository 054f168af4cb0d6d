import type {
  CallImport,
  CallImportDetail,
  CallImportRow,
  EvaluationStatus,
  PageQuery,
  Tag,
} from '@voice-eval/contract';
import type { RequestContext } from '../../context.js';
import { paginate } from '../../db/paginate.js';
import { iso } from '../../db/rows.js';
import type { Deps } from '../../deps.js';
import { notFound } from '../../errors.js';
import { toTag } from '../tags/service.js';
import * as repo from './repo.js';
import * as rows from './row-repo.js';

/** An import row and its tags as the wire's CallImport. */
export const toCallImport = (row: repo.ImportRow, tags: Tag[]): CallImport => ({
  id: row.id,
  organization_id: row.organization_id,
  workspace_id: row.workspace_id,
  provider: row.provider,
  telephony_integration_id: row.telephony_integration_id,
  original_filename: row.original_filename,
  sheet_name: row.sheet_name,
  dataset: row.dataset,
  tags,
  schema_id: row.schema_id,
  parameter_mapping: row.parameter_mapping,
  column_mapping: row.column_mapping,
  custom_column_mapping: row.custom_column_mapping,
  extra_columns: row.extra_columns,
  skipped_columns: row.skipped_columns,
  source_row_skips: row.source_row_skips as CallImport['source_row_skips'],
  source_storage_key: row.source_storage_key,
  source_format: row.source_format as CallImport['source_format'],
  source_content_type: row.source_content_type,
  source_size_bytes: row.source_size_bytes == null ? null : Number(row.source_size_bytes),
  available_sheets: row.available_sheets,
  total_rows: row.total_rows,
  completed_rows: row.completed_rows,
  failed_rows: row.failed_rows,
  status: row.status as CallImport['status'],
  error_message: row.error_message,
  latest_evaluation_status: row.latest_evaluation_status as EvaluationStatus | null,
  created_at: iso(row.created_at),
  updated_at: iso(row.updated_at),
  created_by_email: row.created_by_email,
  last_updated_by_email: row.last_updated_by_email,
});

/** A row as the wire's CallImportRow. */
export const toCallImportRow = (
  row: Pick<rows.RowRecord, (typeof rows.ROW_COLUMNS)[number]>,
): CallImportRow => ({
  id: row.id,
  call_import_id: row.call_import_id,
  conversation_id: row.conversation_id,
  source_row: row.source_row,
  parameters: row.parameters,
  recording_url: row.recording_url,
  recording_storage_key: row.recording_storage_key,
  has_recording: row.recording_url !== null || row.recording_storage_key !== null,
  source_transcript: row.source_transcript,
  diarised_transcript: row.diarised_transcript,
  diarised_transcript_status: row.diarised_transcript_status,
  diarised_transcript_error: row.diarised_transcript_error,
  voice_measures: row.voice_measures,
  voice_events: row.voice_events,
  created_at: iso(row.created_at),
  updated_at: iso(row.updated_at),
});

/** Adds tags to import rows, keeping their order. */
const hydrate = async (deps: Deps, imports: repo.ImportRow[]): Promise<CallImport[]> => {
  if (imports.length === 0) return [];
  const tagRows = await repo.tagsOfImports(
    deps.db,
    imports.map((i) => i.id),
  );
  return imports.map((row) =>
    toCallImport(row, tagRows.filter((t) => t.call_import_id === row.id).map(toTag)),
  );
};

/** The active workspace's imports matching the filters, newest first. */
export const listCallImports = async (
  deps: Deps,
  ctx: RequestContext,
  query: PageQuery & repo.ImportFilters,
) => {
  const page = await paginate(repo.importsQuery(deps.db, ctx, query), query, (row: repo.ImportRow) => row);
  return { ...page, items: await hydrate(deps, page.items) };
};

/** An import of the active workspace as the wire's CallImport (404 otherwise). */
export const getCallImport = async (deps: Deps, ctx: RequestContext, id: string): Promise<CallImport> => {
  const row = await repo.findImport(deps.db, ctx, id);
  if (!row) throw notFound('Call import');
  return (await hydrate(deps, [row]))[0]!;
};

/** The import with a window of its rows in source order, how many rows match the filters, and its diarisation. */
export const getCallImportDetail = async (
  deps: Deps,
  ctx: RequestContext,
  id: string,
  query: rows.RowFilters & { row_limit: number; row_offset: number },
): Promise<CallImportDetail> => {
  const callImport = await getCallImport(deps, ctx, id);
  const filtered = rows.rowsQuery(deps.db, id, query);
  const [window, counted, diarisation] = await Promise.all([
    filtered
      .clone()
      .select(rows.ROW_COLUMNS)
      .orderBy(rows.SOURCE_ORDER)
      .limit(query.row_limit)
      .offset(query.row_offset),
    filtered.clone().count({ n: '*' }),
    rows.diarisationSummary(deps.db, id),
  ]);
  return {
    ...callImport,
    rows: (window as rows.RowRecord[]).map(toCallImportRow),
    rows_total: Number(counted[0]?.n ?? 0),
    diarisation,
  };
};

/**
 * Every row id matching the detail endpoint's filters, in source order, with no cap: the JSON
 * document of the response in chunks (see `rowIdsDocument`), for the route to stream. Checks the
 * import first, so a missing one is a 404 before anything is sent.
 */
export const rowIdsDocument = async (
  deps: Deps,
  ctx: RequestContext,
  id: string,
  filters: rows.RowFilters,
): Promise<AsyncGenerator<string>> => {
  if (!(await repo.findImport(deps.db, ctx, id))) throw notFound('Call import');
  return rows.rowIdsDocument(deps.db, id, filters);
};

/**
 * Deletes an import with its rows, then its stored files (source and uploaded recordings). A
 * worker still diarising one of its rows finds nothing to finish.
 */
export const deleteCallImport = async (deps: Deps, ctx: RequestContext, id: string): Promise<void> => {
  const row = await repo.findImport(deps.db, ctx, id);
  if (!row) throw notFound('Call import');
  const keys = await rows.recordingKeys(deps.db, id);
  if (!(await repo.deleteImport(deps.db, ctx, id))) throw notFound('Call import');
  if (row.source_storage_key) keys.push(row.source_storage_key);
  for (const key of keys) {
    await deps.storage.delete(key).catch((err: unknown) => {
      deps.logger.warn({ err, key, callImportId: id }, 'call_import:blob_delete_failed');
    });
  }
};

/** A call of the workspace, as another module names it: its row, conversation and import. */
export type CallRef = { id: string; call_import_id: string; conversation_id: string };

/** The calls (call-import rows) of the workspace among `ids`, by id; others' and unknown ids are absent. */
export const visibleCallRows = async (
  deps: Deps,
  ctx: RequestContext,
  ids: readonly string[],
): Promise<Map<string, CallRef>> =>
  new Map((await rows.visibleRows(deps.db, ctx, ids)).map((row) => [row.id, row]));

/** The calls of one of the workspace's imports, in source order; 404 for an unknown import. */
export const callsOfImport = async (deps: Deps, ctx: RequestContext, id: string): Promise<CallRef[]> => {
  if (!(await repo.findImport(deps.db, ctx, id))) throw notFound('Call import');
  return rows.rowRefsOf(deps.db, id);
};
