import type { Knex } from 'knex';

/** The organization and the workspace a request (or a report's run) acts in. */
export type Scope = { organizationId: string; workspaceId: string };

// ---------------------------------------------------------------------------
// Evaluation rows in a report's scope: a read-only query joining the evaluations, evaluators and
// suite tables (their services read one resource at a time; a report needs a filtered set).
// ---------------------------------------------------------------------------

/** The filters of a report as SQL sees them (see scope.ts). */
export type RowScope = {
  agent_id: string | null;
  scenario_ids: readonly string[];
  suite_id: string | null;
  job_id: string | null;
  since: string | null;
  until: string | null;
};

/** Completed evaluation rows of the workspace matching the filters (unordered, no select). */
export const scopedRows = (db: Knex, scope: Scope, filters: RowScope) => {
  const query = db('evaluation_rows as er')
    .join('evaluations as e', 'e.id', 'er.evaluation_id')
    .where('e.organization_id', scope.organizationId)
    .where('e.workspace_id', scope.workspaceId)
    .where('er.status', 'completed');
  if (filters.job_id) query.where('e.id', filters.job_id);
  if (filters.agent_id || filters.scenario_ids.length > 0 || filters.suite_id) {
    // a row is an evaluator's call, or a suite run's simulated call (the run's evaluation has no evaluator)
    query
      .leftJoin('evaluators as ev', 'ev.id', 'e.evaluator_id')
      .leftJoin('suite_run_calls as src', 'src.call_import_row_id', 'er.call_import_row_id')
      .leftJoin('suite_runs as sr', 'sr.id', 'src.run_id');
  }
  if (filters.agent_id) query.whereRaw('coalesce(ev.agent_id, sr.agent_id) = ?', [filters.agent_id]);
  if (filters.scenario_ids.length > 0) {
    query.whereIn(db.raw('coalesce(ev.scenario_id, src.scenario_id)') as never, [...filters.scenario_ids]);
  }
  if (filters.suite_id) {
    const suiteId = filters.suite_id;
    query.where((q) =>
      q
        .whereIn(
          'e.evaluator_id',
          db('evaluator_suite_combinations').select('evaluator_id').where('suite_id', suiteId),
        )
        .orWhere('sr.suite_id', suiteId),
    );
  }
  if (filters.since) query.where('er.completed_at', '>=', filters.since);
  if (filters.until) query.where('er.completed_at', '<=', filters.until);
  return query;
};

/** Completed rows and distinct calls in scope. */
export const countScoped = async (db: Knex, scope: Scope, filters: RowScope) => {
  const [row] = await scopedRows(db, scope, filters).select(
    db.raw('count(*) as rows'),
    db.raw('count(distinct er.call_import_row_id) as calls'),
  );
  const counts = row as { rows: number | string; calls: number | string } | undefined;
  return { rows: Number(counts?.rows ?? 0), calls: Number(counts?.calls ?? 0) };
};

/** An evaluation row in scope, as the analysis reads it. */
export type ScopedRowRecord = {
  id: string;
  call_import_row_id: string;
  conversation_id: string;
  results: unknown;
  discovered: unknown;
};

/** The most recently completed rows in scope, newest first, at most `limit`. */
export const latestScoped = (
  db: Knex,
  scope: Scope,
  filters: RowScope,
  limit: number,
): Promise<ScopedRowRecord[]> =>
  scopedRows(db, scope, filters)
    .select('er.id', 'er.call_import_row_id', 'er.conversation_id', 'er.results', 'er.discovered')
    .orderBy([
      { column: 'er.completed_at', order: 'desc' },
      { column: 'er.id', order: 'desc' },
    ])
    .limit(limit);

/** Transcripts of some call-import rows (evidence only ever needs a few). */
export const transcriptsOf = (db: Knex, callImportRowIds: readonly string[]) =>
  db('call_import_rows')
    .whereIn('id', callImportRowIds)
    .select('id', 'diarised_transcript', 'source_transcript') as Promise<
    Array<{ id: string; diarised_transcript: unknown; source_transcript: string | null }>
  >;

// ---------------------------------------------------------------------------
// Reports: one row per scope, a durable work item while it is generated.
// ---------------------------------------------------------------------------

export type ReportStatus = 'pending' | 'running' | 'completed' | 'failed';

/** A stored report: its scope, the state of its current or last run, and its last result. */
export type ReportRow = {
  id: string;
  organization_id: string;
  workspace_id: string;
  scope_hash: string;
  scope: Record<string, unknown>;
  status: ReportStatus;
  progress: { phase: string; completed_steps: number; total_steps: number };
  max_llm_calls: number;
  llm_calls_used: number;
  provider: string | null;
  model: string | null;
  error: { code: string; message: string } | null;
  result: Record<string, unknown> | null;
  generated_at: Date | null;
  generated_at_completed_rows: number | null;
  policies_fingerprint: string | null;
  lease_owner: string | null;
  lease_expires_at: Date | null;
  attempts: number;
  queued_at: Date | null;
  requested_by: string;
  created_at: Date;
  updated_at: Date;
};

/** The report table as the lease helpers see it. */
export const REPORT_WORK = {
  table: 'metric_cluster_reports',
  status: 'status',
  errorColumn: 'error',
} as const;

/** The workspace's report of a scope, if it was ever generated. */
export const findReport = (db: Knex, scope: Scope, scopeHash: string) =>
  db('metric_cluster_reports')
    .where({ organization_id: scope.organizationId, workspace_id: scope.workspaceId, scope_hash: scopeHash })
    .first<ReportRow | undefined>();

/**
 * Queues generation for a scope in one statement: inserts the report, or re-queues a completed or
 * failed one (its last result stays readable meanwhile). A report already pending or running is
 * left as it is; either way the current row is returned.
 */
export const requestReport = async (
  db: Knex,
  scope: Scope,
  values: { scope_hash: string; scope: object; max_llm_calls: number; requested_by: string; now: Date },
): Promise<ReportRow> => {
  const queued = {
    status: 'pending',
    progress: JSON.stringify({ phase: 'queued', completed_steps: 0, total_steps: 0 }),
    max_llm_calls: values.max_llm_calls,
    llm_calls_used: 0,
    error: null,
    attempts: 0,
    lease_owner: null,
    lease_expires_at: null,
    queued_at: values.now,
    requested_by: values.requested_by,
    updated_at: values.now,
  };
  const [row] = await db('metric_cluster_reports')
    .insert({
      ...queued,
      organization_id: scope.organizationId,
      workspace_id: scope.workspaceId,
      scope_hash: values.scope_hash,
      scope: JSON.stringify(values.scope),
    })
    .onConflict(['organization_id', 'workspace_id', 'scope_hash'])
    .merge(queued)
    .whereIn('metric_cluster_reports.status', ['completed', 'failed'])
    .returning('*');
  return (row as ReportRow | undefined) ?? (await findReport(db, scope, values.scope_hash))!;
};

/** Writes to a report only while this lease holds it (progress, the call counter); false when fenced. */
export const updateLeased = async (
  db: Knex,
  lease: { id: string; owner: string },
  patch: Record<string, unknown>,
) =>
  (await db('metric_cluster_reports')
    .where({ id: lease.id, lease_owner: lease.owner, status: 'running' })
    .update(patch)) === 1;
