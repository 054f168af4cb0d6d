import type { EvaluationResult, EvaluationStatus } from '@voice-eval/contract';
import type { Knex } from 'knex';
import type { MetricSnapshot, StoredDiscovery } from './results.js';

/** An `evaluations` row. */
export type EvaluationRecord = {
  id: string;
  organization_id: string;
  workspace_id: string;
  call_import_id: string;
  evaluator_id: string | null;
  metric_ids: string[];
  metrics: MetricSnapshot[];
  ai_provider_id: string | null;
  provider: string | null;
  model: string | null;
  status: EvaluationStatus;
  error_message: string | null;
  created_by: string;
  created_at: Date;
  updated_at: Date;
  started_at: Date | null;
  completed_at: Date | null;
  dispatch_key: number;
};

/** An `evaluation_rows` row. */
export type EvaluationRowRecord = {
  id: string;
  evaluation_id: string;
  organization_id: string;
  workspace_id: string;
  call_import_row_id: string;
  conversation_id: string;
  position: number;
  status: EvaluationStatus;
  results: EvaluationResult[];
  flagged: boolean;
  /** Absent on rows read before the column existed: none. */
  discovered?: StoredDiscovery[];
  error: Record<string, unknown> | null;
  lease_owner: string | null;
  lease_expires_at: Date | null;
  attempts: number;
  queued_at: Date;
  started_at: Date | null;
  completed_at: Date | null;
  created_at: Date;
  updated_at: Date;
};

type Scope = { organizationId: string; workspaceId: string };

/** The columns a create writes (the rest have defaults). */
export type EvaluationWrite = Pick<
  EvaluationRecord,
  | 'organization_id'
  | 'workspace_id'
  | 'call_import_id'
  | 'evaluator_id'
  | 'metric_ids'
  | 'metrics'
  | 'ai_provider_id'
  | 'provider'
  | 'model'
  | 'created_by'
>;

/** Row counts of an evaluation per status. */
export type StatusCounts = Record<EvaluationStatus, number>;

/** An evaluation of the workspace, or undefined (unknown, or another tenant's). */
export const findEvaluation = (db: Knex, scope: Scope, id: string): Promise<EvaluationRecord | undefined> =>
  db('evaluations')
    .where({ organization_id: scope.organizationId, workspace_id: scope.workspaceId, id })
    .first();

/** The metric definitions an evaluation froze when it started (any tenant: the caller found it). */
export const frozenMetrics = async (db: Knex, id: string): Promise<MetricSnapshot[]> =>
  ((await db('evaluations').where({ id }).first('metrics'))?.metrics as MetricSnapshot[] | undefined) ?? [];

/** Locks an evaluation of the workspace until the transaction ends (cancel against completion). */
export const lockEvaluation = (trx: Knex, scope: Scope, id: string): Promise<EvaluationRecord | undefined> =>
  trx('evaluations')
    .where({ organization_id: scope.organizationId, workspace_id: scope.workspaceId, id })
    .forUpdate()
    .first();

/** The workspace's evaluations matching the filters, unordered (see `paginate`). */
export const evaluationsQuery = (
  db: Knex,
  scope: Scope,
  filters: { call_import_id?: string; status?: string },
) => {
  const base = db('evaluations').where({
    organization_id: scope.organizationId,
    workspace_id: scope.workspaceId,
  });
  if (filters.call_import_id) base.where('call_import_id', filters.call_import_id);
  if (filters.status) base.where('status', filters.status);
  return base;
};

/** Row counts per status of each evaluation, read from the rows. */
export const statusCounts = async (
  db: Knex,
  evaluationIds: readonly string[],
): Promise<Map<string, StatusCounts>> => {
  const counts = new Map<string, StatusCounts>();
  for (const id of evaluationIds) {
    counts.set(id, { pending: 0, running: 0, completed: 0, failed: 0, cancelled: 0 });
  }
  if (evaluationIds.length === 0) return counts;
  const rows: Array<{ evaluation_id: string; status: EvaluationStatus; n: number }> = await db(
    'evaluation_rows',
  )
    .whereIn('evaluation_id', evaluationIds)
    .groupBy('evaluation_id', 'status')
    .select('evaluation_id', 'status', db.raw('count(*)::int as n'));
  for (const row of rows) counts.get(row.evaluation_id)![row.status] = row.n;
  return counts;
};

/** An evaluation's rows matching the filters, unordered (see `paginate`). */
export const rowsQuery = (
  db: Knex,
  evaluationId: string,
  filters: { status?: string; flagged?: boolean; call_import_row_id?: string },
) => {
  const base = db('evaluation_rows').where('evaluation_id', evaluationId);
  if (filters.status) base.where('status', filters.status);
  if (filters.flagged !== undefined) base.where('flagged', filters.flagged);
  if (filters.call_import_row_id) base.where('call_import_row_id', filters.call_import_row_id);
  return base;
};

/** Inserts an evaluation (JSON columns encoded). */
export const insertEvaluation = async (trx: Knex, row: EvaluationWrite): Promise<EvaluationRecord> => {
  const [created] = await trx('evaluations')
    .insert({ ...row, metric_ids: JSON.stringify(row.metric_ids), metrics: JSON.stringify(row.metrics) })
    .returning('*');
  return created as EvaluationRecord;
};

/** Of these ids, those that are rows of the import. */
export const existingCallRowIds = (
  db: Knex,
  callImportId: string,
  ids: readonly string[],
): Promise<string[]> =>
  db('call_import_rows')
    .where('call_import_id', callImportId)
    .whereRaw('id in (select value::uuid from json_array_elements_text(?::json))', [JSON.stringify(ids)])
    .pluck('id') as unknown as Promise<string[]>;

/** A call-import row has something to score: a non-empty diarised transcript or source transcript. */
export const HAS_TRANSCRIPT = `((cr.diarised_transcript_status = 'completed' and jsonb_typeof(cr.diarised_transcript) = 'array'
    and jsonb_array_length(cr.diarised_transcript) > 0)
  or (cr.source_transcript is not null and btrim(cr.source_transcript) <> ''))`;

/**
 * One pending evaluation row per chosen call-import row, in one INSERT ... SELECT: the listed
 * rows, or every row of the import with a transcript. Returns how many rows were created.
 */
export const insertRows = async (
  trx: Knex,
  evaluation: EvaluationRecord,
  rowIds: readonly string[] | null,
  now: Date,
): Promise<number> => {
  const filter = rowIds
    ? 'cr.id in (select value::uuid from json_array_elements_text(?::json))'
    : HAS_TRANSCRIPT;
  const result = await trx.raw(
    `with created as (
       insert into evaluation_rows
         (evaluation_id, organization_id, workspace_id, call_import_row_id, conversation_id, position, queued_at, created_at, updated_at)
       select ?, ?, ?, cr.id, cr.conversation_id, cr.source_row, ?, ?, ?
         from call_import_rows cr
        where cr.call_import_id = ? and ${filter}
       returning 1
     )
     select count(*)::int as n from created`,
    [
      evaluation.id,
      evaluation.organization_id,
      evaluation.workspace_id,
      now,
      now,
      now,
      evaluation.call_import_id,
      ...(rowIds ? [JSON.stringify(rowIds)] : []),
    ],
  );
  return Number(result.rows[0]?.n ?? 0);
};

/**
 * Cancels an evaluation's pending and running rows: they become `cancelled` with the error
 * `cancelled` and lose their lease, so a worker still on one cannot finish it (fencing).
 */
export const cancelRows = (trx: Knex, evaluationId: string, error: Record<string, unknown>, now: Date) =>
  trx('evaluation_rows')
    .where('evaluation_id', evaluationId)
    .whereIn('status', ['pending', 'running'])
    .update({
      status: 'cancelled',
      error: JSON.stringify(error),
      lease_owner: null,
      lease_expires_at: null,
      completed_at: now,
      updated_at: now,
    });

/** Updates an evaluation by id and returns it. */
export const updateEvaluation = async (trx: Knex, id: string, patch: Partial<EvaluationRecord>) => {
  const [row] = await trx('evaluations').where({ id }).update(patch).returning('*');
  return row as EvaluationRecord;
};

/**
 * The judge's value and flag for `metricId` scored with `version` on each of these call rows of
 * the workspace: from the most recently completed evaluation row that has one.
 */
export const judgedResults = async (
  db: Knex,
  scope: Scope,
  metricId: string,
  version: number,
  callRowIds: readonly string[],
): Promise<Array<{ call_import_row_id: string; value: EvaluationResult['value']; flagged: boolean }>> => {
  if (callRowIds.length === 0) return [];
  const result = await db.raw(
    `select distinct on (er.call_import_row_id) er.call_import_row_id, r.value -> 'value' as value,
            coalesce((r.value ->> 'flagged')::boolean, false) as flagged
       from evaluation_rows er
      cross join lateral jsonb_array_elements(er.results) r
      where er.organization_id = ? and er.workspace_id = ? and er.status = 'completed'
        and er.call_import_row_id = any(?::uuid[])
        and r.value ->> 'metric_id' = ? and (r.value ->> 'metric_version')::int = ?
      order by er.call_import_row_id, er.completed_at desc nulls last, er.id`,
    [scope.organizationId, scope.workspaceId, [...new Set(callRowIds)], metricId, version],
  );
  return result.rows;
};

/** Which of these call rows of the workspace an evaluation is scoring now with `version` of `metricId`. */
export const rowsBeingScored = async (
  db: Knex,
  scope: Scope,
  metricId: string,
  version: number,
  callRowIds: readonly string[],
): Promise<string[]> => {
  if (callRowIds.length === 0) return [];
  const result = await db.raw(
    `select distinct er.call_import_row_id
       from evaluation_rows er
       join evaluations e on e.id = er.evaluation_id
      where er.organization_id = ? and er.workspace_id = ? and er.status in ('pending', 'running')
        and er.call_import_row_id = any(?::uuid[]) and e.metrics @> ?::jsonb`,
    [
      scope.organizationId,
      scope.workspaceId,
      [...new Set(callRowIds)],
      JSON.stringify([{ id: metricId, version }]),
    ],
  );
  return result.rows.map((row: { call_import_row_id: string }) => row.call_import_row_id);
};

/** The completed rows of an evaluation, in its order: which call, and its results. */
export const completedRows = (
  db: Knex,
  evaluationId: string,
): Promise<Array<{ call_import_row_id: string; results: EvaluationResult[] }>> =>
  db('evaluation_rows')
    .where({ evaluation_id: evaluationId, status: 'completed' })
    .orderBy([{ column: 'position' }, { column: 'id' }])
    .select('call_import_row_id', 'results');
