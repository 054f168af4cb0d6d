import type { VoiceEvent, VoiceMeasures } from '@voice-eval/contract';
import type { Knex } from 'knex';

/** A `suite_runs` row. */
export type RunRecord = {
  id: string;
  organization_id: string;
  workspace_id: string;
  suite_id: string;
  agent_id: string;
  status: string;
  trigger: string;
  channel: 'text' | 'voice';
  voice_summary: Record<string, number> | null;
  schedule_slot: Date | null;
  runs_per_combination: number;
  combination_ids: string[];
  metric_ids: string[];
  baseline_run_id: string | null;
  call_import_id: string;
  evaluation_id: string | null;
  pass_rate: number | null;
  metric_summary: unknown[];
  combination_summary: unknown[];
  error_message: string | null;
  created_by: string;
  created_at: Date;
  updated_at: Date;
  started_at: Date | null;
  finished_at: Date | null;
};

/** A `suite_run_calls` row. */
export type CallRecord = {
  id: string;
  run_id: string;
  organization_id: string;
  workspace_id: string;
  combination_id: string;
  evaluator_id: string;
  persona_id: string;
  scenario_id: string;
  repetition: number;
  position: number;
  conversation_id: string;
  call_import_row_id: string;
  seed: number;
  status: string;
  end_reason: string | null;
  error: { code: string; message: string; at: string } | null;
  turns: number;
  agent_latency: { p50_ms: number; p95_ms: number; max_ms: number } | null;
  voice_measures: VoiceMeasures | null;
  voice_events: VoiceEvent[] | null;
  lease_owner: string | null;
  lease_expires_at: Date | null;
  attempts: number;
  queued_at: Date;
  started_at: Date | null;
  completed_at: Date | null;
  created_at: Date;
  updated_at: Date;
};

export type CallWrite = Pick<
  CallRecord,
  | 'combination_id'
  | 'evaluator_id'
  | 'persona_id'
  | 'scenario_id'
  | 'repetition'
  | 'position'
  | 'conversation_id'
  | 'call_import_row_id'
  | 'seed'
>;

type Scope = { organizationId: string; workspaceId: string };

export type CallCounts = {
  pending: number;
  running: number;
  completed: number;
  failed: number;
  cancelled: number;
};

const ZERO: CallCounts = { pending: 0, running: 0, completed: 0, failed: 0, cancelled: 0 };

export const insertRun = async (db: Knex, row: Record<string, unknown>): Promise<RunRecord> => {
  const [created] = await db('suite_runs').insert(row).returning('*');
  return created as RunRecord;
};

/** Inserts the calls of a run in one statement. */
export const insertCalls = async (
  db: Knex,
  run: Pick<RunRecord, 'id' | 'organization_id' | 'workspace_id'>,
  calls: readonly CallWrite[],
  now: Date,
) => {
  await db.raw(
    `insert into suite_run_calls (run_id, organization_id, workspace_id, combination_id, evaluator_id, persona_id,
            scenario_id, repetition, position, conversation_id, call_import_row_id, seed, queued_at)
     select ?::uuid, ?::uuid, ?::uuid, c.combination_id, c.evaluator_id, c.persona_id, c.scenario_id, c.repetition,
            c.position, c.conversation_id, c.call_import_row_id, c.seed, ?
       from json_to_recordset(?::json) as c(combination_id uuid, evaluator_id uuid, persona_id uuid, scenario_id uuid,
            repetition int, position int, conversation_id text, call_import_row_id uuid, seed int)`,
    [run.id, run.organization_id, run.workspace_id, now, JSON.stringify(calls)],
  );
};

export const findRun = (db: Knex, scope: Scope, id: string) =>
  db<RunRecord>('suite_runs')
    .where({ organization_id: scope.organizationId, workspace_id: scope.workspaceId, id })
    .first();

export const findRunForUpdate = (db: Knex, scope: Scope, id: string) =>
  db<RunRecord>('suite_runs')
    .where({ organization_id: scope.organizationId, workspace_id: scope.workspaceId, id })
    .forUpdate()
    .first();

/** Runs of the workspace matching the filters, unordered: see `paginate`. */
export const runsQuery = (
  db: Knex,
  scope: Scope,
  filters: { suite_id?: string; agent_id?: string; status?: string },
) => {
  const base = db('suite_runs').where({
    organization_id: scope.organizationId,
    workspace_id: scope.workspaceId,
  });
  if (filters.suite_id) base.andWhere('suite_id', filters.suite_id);
  if (filters.agent_id) base.andWhere('agent_id', filters.agent_id);
  if (filters.status) base.andWhere('status', filters.status);
  return base;
};

export const updateRun = async (db: Knex, id: string, patch: Record<string, unknown>) => {
  const [row] = await db('suite_runs').where({ id }).update(patch).returning('*');
  return row as RunRecord;
};

/** Calls per status of each run. */
export const callCounts = async (db: Knex, runIds: readonly string[]): Promise<Map<string, CallCounts>> => {
  const counts = new Map(runIds.map((id) => [id, { ...ZERO }]));
  if (runIds.length === 0) return counts;
  const rows = (await db('suite_run_calls')
    .whereIn('run_id', [...runIds])
    .groupBy('run_id', 'status')
    .select('run_id', 'status', db.raw('count(*)::int as n'))) as Array<{
    run_id: string;
    status: string;
    n: number;
  }>;
  for (const row of rows) {
    const entry = counts.get(row.run_id);
    if (entry && row.status in entry) entry[row.status as keyof CallCounts] = row.n;
  }
  return counts;
};

/** Calls of a run, optionally in one status, of one persona or scenario, unordered: see `paginate`. */
export const callsQuery = (
  db: Knex,
  runId: string,
  filters: { status?: string; persona_id?: string; scenario_id?: string },
) => {
  const base = db('suite_run_calls').where({ run_id: runId });
  if (filters.status) base.andWhere('status', filters.status);
  if (filters.persona_id) base.andWhere('persona_id', filters.persona_id);
  if (filters.scenario_id) base.andWhere('scenario_id', filters.scenario_id);
  return base;
};

/** Cancels a run's pending and running calls (their workers' final writes then fail the lease check). */
export const cancelCalls = (db: Knex, runId: string, error: object, now: Date) =>
  db('suite_run_calls')
    .where({ run_id: runId })
    .whereIn('status', ['pending', 'running'])
    .update({
      status: 'cancelled',
      error: JSON.stringify(error),
      lease_owner: null,
      lease_expires_at: null,
      completed_at: now,
      updated_at: now,
    });

/** The most recent completed run of a suite created before `before`, if any. */
export const previousCompletedRun = (db: Knex, suiteId: string, before: RunRecord) =>
  db<RunRecord>('suite_runs')
    .where({ suite_id: suiteId, status: 'completed' })
    .andWhere((q) =>
      q
        .where('created_at', '<', before.created_at)
        .orWhere((q2) => q2.where('created_at', '=', before.created_at).andWhere('id', '<', before.id)),
    )
    .orderBy([
      { column: 'created_at', order: 'desc' },
      { column: 'id', order: 'desc' },
    ])
    .first();

/** Names of suites (the evaluator-suites module's table, read only), by id. */
export const suiteNames = async (db: Knex, suiteIds: readonly string[]): Promise<Map<string, string>> => {
  const rows = (await db('evaluator_suites')
    .whereIn('id', [...new Set(suiteIds)])
    .select('id', 'name')) as Array<{ id: string; name: string }>;
  return new Map(rows.map((r) => [r.id, r.name]));
};
