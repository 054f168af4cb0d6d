import type { Knex } from 'knex';

/** A `human_labels` row as read; `value` arrives parsed. */
export type LabelRow = {
  organization_id: string;
  workspace_id: string;
  metric_id: string;
  call_import_row_id: string;
  labelled_by: string;
  value: boolean | number | string | string[];
  note: string;
  created_at: Date;
  updated_at: Date;
};

type Scope = { organizationId: string; workspaceId: string };

const inScope = (db: Knex, scope: Scope, metricId: string) =>
  db('human_labels').where({
    organization_id: scope.organizationId,
    workspace_id: scope.workspaceId,
    metric_id: metricId,
  });

/** Stores a person's label of a call on a metric, replacing the one they gave before. */
export const upsertLabel = async (
  db: Knex,
  row: Omit<LabelRow, 'created_at' | 'updated_at'>,
  at: Date,
): Promise<LabelRow> => {
  const [stored] = await db('human_labels')
    .insert({ ...row, value: JSON.stringify(row.value), created_at: at, updated_at: at })
    .onConflict(['metric_id', 'call_import_row_id', 'labelled_by'])
    .merge({ value: JSON.stringify(row.value), note: row.note, updated_at: at })
    .returning('*');
  return stored as LabelRow;
};

/** Removes a person's label; how many rows went (0 or 1). */
export const deleteLabel = (db: Knex, scope: Scope, metricId: string, rowId: string, labelledBy: string) =>
  inScope(db, scope, metricId).where({ call_import_row_id: rowId, labelled_by: labelledBy }).delete();

/** The workspace's labels of a metric, filtered, for `paginate` (which orders them). */
export const labelsQuery = (
  db: Knex,
  scope: Scope,
  metricId: string,
  filters: { call_import_row_id?: string; labelled_by?: string },
) => {
  const query = inScope(db, scope, metricId);
  if (filters.call_import_row_id) query.andWhere('call_import_row_id', filters.call_import_row_id);
  if (filters.labelled_by) query.andWhere('labelled_by', filters.labelled_by);
  return query;
};

/** Every label of the workspace on a metric, newest first: what agreement is measured on. */
export const allLabels = (db: Knex, scope: Scope, metricId: string): Promise<LabelRow[]> =>
  inScope(db, scope, metricId).orderBy([
    { column: 'updated_at', order: 'desc' },
    { column: 'call_import_row_id', order: 'asc' },
  ]);

/**
 * Every label of the workspace on a metric, filtered, in the list's order (newest first, then
 * by call as the list pages them, then by who labelled): what the export holds.
 */
export const labelsToExport = (
  db: Knex,
  scope: Scope,
  metricId: string,
  filters: { call_import_row_id?: string; labelled_by?: string },
): Promise<LabelRow[]> =>
  labelsQuery(db, scope, metricId, filters).orderBy([
    { column: 'updated_at', order: 'desc' },
    { column: 'call_import_row_id', order: 'desc' },
    { column: 'labelled_by', order: 'asc' },
  ]);

/** The workspace's labels of these calls on these metrics. */
export const labelsOn = (
  db: Knex,
  scope: Scope,
  metricIds: readonly string[],
  rowIds: readonly string[],
): Promise<LabelRow[]> =>
  metricIds.length === 0 || rowIds.length === 0
    ? Promise.resolve([])
    : db('human_labels')
        .where({ organization_id: scope.organizationId, workspace_id: scope.workspaceId })
        .whereIn('metric_id', [...metricIds])
        .whereIn('call_import_row_id', [...rowIds]);
