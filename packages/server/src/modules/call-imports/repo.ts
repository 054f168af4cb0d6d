import type { Knex } from 'knex';

export type ImportRow = {
  id: string;
  organization_id: string;
  workspace_id: string;
  schema_id: string;
  provider: string;
  telephony_integration_id: string | null;
  original_filename: string | null;
  sheet_name: string | null;
  dataset: string | null;
  parameter_mapping: Record<string, string>;
  column_mapping: Record<string, string>;
  custom_column_mapping: Record<string, string>;
  extra_columns: string[];
  skipped_columns: string[];
  source_row_skips: Array<{ source_row: number; reason: string; message: string }>;
  available_sheets: Array<{ name: string; headers: string[]; row_count: number }>;
  source_storage_key: string | null;
  source_format: string | null;
  source_content_type: string | null;
  source_size_bytes: number | string | null;
  total_rows: number;
  completed_rows: number;
  failed_rows: number;
  status: string;
  error_message: string | null;
  /** The newest evaluation's status, kept current by a trigger on `evaluations`. */
  latest_evaluation_status: string | null;
  created_by: string;
  created_by_email: string | null;
  last_updated_by_email: string | null;
  created_at: Date;
  updated_at: Date;
};

/** Columns written as JSON (knex would send arrays as Postgres arrays). */
const JSON_COLUMNS = [
  'parameter_mapping',
  'column_mapping',
  'custom_column_mapping',
  'extra_columns',
  'skipped_columns',
  'source_row_skips',
  'available_sheets',
] as const;

export type ImportWrite = Partial<Omit<ImportRow, 'created_at' | 'updated_at'>>;

const encode = (row: ImportWrite) => {
  const out: Record<string, unknown> = { ...row };
  for (const column of JSON_COLUMNS) if (column in row) out[column] = JSON.stringify(row[column]);
  return out;
};

type Scope = { organizationId: string; workspaceId: string };

/** List filters of GET /call-imports. */
export type ImportFilters = {
  status?: string;
  dataset?: string;
  tag_id?: readonly string[];
  source_format?: 'audio' | 'non_audio' | 'simulation' | 'production';
};

export const insertImport = async (db: Knex, row: ImportWrite): Promise<ImportRow> => {
  const [created] = await db('call_imports').insert(encode(row)).returning('*');
  return created as ImportRow;
};

export const updateImport = async (db: Knex, id: string, patch: ImportWrite): Promise<ImportRow> => {
  const [updated] = await db('call_imports')
    .where({ id })
    .update({ ...encode(patch), updated_at: db.fn.now() })
    .returning('*');
  return updated as ImportRow;
};

export const insertImportTags = async (db: Knex, callImportId: string, tagIds: readonly string[]) => {
  if (tagIds.length === 0) return;
  await db('call_import_tags').insert(tagIds.map((tag_id) => ({ call_import_id: callImportId, tag_id })));
};

export const findImport = (db: Knex, scope: Scope, id: string) =>
  db<ImportRow>('call_imports')
    .where({ organization_id: scope.organizationId, workspace_id: scope.workspaceId, id })
    .first();

/**
 * The workspace's imports matching the filters, unordered: dataset case-insensitively (`none`:
 * no dataset), every given tag, and the source kind (legacy imports with no
 * recorded format count as non-audio).
 */
export const importsQuery = (db: Knex, scope: Scope, filters: ImportFilters) => {
  const base = db('call_imports').where({
    organization_id: scope.organizationId,
    workspace_id: scope.workspaceId,
  });
  if (filters.status) base.where('status', filters.status);
  if (filters.dataset !== undefined) {
    if (filters.dataset.trim().toLowerCase() === 'none') base.whereNull('dataset');
    else base.whereRaw('lower(dataset) = lower(?)', [filters.dataset.trim()]);
  }
  const tagIds = [...new Set(filters.tag_id ?? [])];
  if (tagIds.length > 0) {
    const carrying = db('call_import_tags')
      .select('call_import_id')
      .whereIn('tag_id', tagIds)
      .groupBy('call_import_id')
      .havingRaw('count(distinct tag_id) = ?', [tagIds.length]);
    base.whereIn('id', carrying);
  }
  if (filters.source_format !== undefined && filters.source_format !== 'non_audio') {
    base.where('source_format', filters.source_format);
  }
  if (filters.source_format === 'non_audio') {
    base.where((q) =>
      q.whereNull('source_format').orWhereNotIn('source_format', ['audio', 'simulation', 'production']),
    );
  }
  return base;
};

/** The tags of these imports (tag columns plus `call_import_id`), by name. */
export const tagsOfImports = (db: Knex, importIds: readonly string[]) =>
  db('call_import_tags as ct')
    .join('tags as t', 't.id', 'ct.tag_id')
    .whereIn('ct.call_import_id', importIds)
    .orderBy([{ column: 't.name' }, { column: 't.id' }])
    .select('ct.call_import_id', 't.id', 't.name', 't.color', 't.created_at', 't.updated_at');

/** Deletes an import of the workspace (its rows, tags and diarisation requests cascade); whether it existed. */
export const deleteImport = async (db: Knex, scope: Scope, id: string): Promise<boolean> => {
  const deleted = await db('call_imports')
    .where({ organization_id: scope.organizationId, workspace_id: scope.workspaceId, id })
    .delete();
  return deleted > 0;
};
