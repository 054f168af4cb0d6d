import type { TranscriptTurn, VoiceMeasures } from '@voice-eval/contract';
import type { Knex } from 'knex';
import type { WorkTable } from '../../dispatch/lease.js';
import { type EventToEmit, emitEvents } from '../webhook-endpoints/service.js';
import type { MetricSnapshot } from './results.js';
import type { ScoreOutcome } from './score.js';

/** Evaluation rows are the work items of scoring: leased, fenced, dispatched fairly (docs/decisions.md). */
export const EVALUATION_WORK: WorkTable = {
  table: 'evaluation_rows',
  status: 'status',
  errorColumn: 'error',
  stamps: { completed: 'completed_at', updated: 'updated_at' },
};

/** What a worker needs to score a row: the evaluation's frozen metrics and judge, and the call's transcript. */
export type ScoringContext = {
  id: string;
  evaluation_id: string;
  organization_id: string;
  metrics: MetricSnapshot[];
  ai_provider_id: string | null;
  model: string | null;
  diarised_transcript: TranscriptTurn[] | null;
  diarised_transcript_status: string | null;
  source_transcript: string | null;
  /**
   * The audio measures voice metrics score: a simulated voice call's, else those of a recording
   * diarised by channel; null otherwise.
   */
  voice_measures: VoiceMeasures | null;
  /** False for a monitor's call its sample skipped: only model-free metrics are scored. */
  sampled: boolean;
  /** The monitor whose evaluation this is, told when the row is done; null for other evaluations. */
  monitor_id: string | null;
};

/**
 * Completes rows just claimed (a CTE named `started` returning evaluation_rows columns) into what
 * a worker needs, so a claim hands out ready-to-score rows in the same statement.
 */
export const SCORING_CONTEXT_SELECT = `select s.id, s.evaluation_id, s.organization_id, s.workspace_id, s.call_import_row_id,
         s.conversation_id, s.lease_owner, s.attempts, s.sampled, e.monitor_id, e.metrics, e.ai_provider_id, e.model,
         cr.diarised_transcript, cr.diarised_transcript_status, cr.source_transcript,
         coalesce(sc.voice_measures, cr.voice_measures) as voice_measures
    from started s
    join evaluations e on e.id = s.evaluation_id
    join call_import_rows cr on cr.id = s.call_import_row_id
    left join suite_run_calls sc on sc.call_import_row_id = s.call_import_row_id`;

/** The final write of a row: its results, or its typed error. */
export const completionOf = (outcome: ScoreOutcome) =>
  outcome.ok
    ? {
        status: 'completed',
        results: JSON.stringify(outcome.results),
        flagged: outcome.flagged,
        discovered: JSON.stringify(outcome.discovered),
        error: null,
      }
    : {
        status: 'failed',
        results: null,
        flagged: null,
        discovered: null,
        error: JSON.stringify(outcome.error),
      };

/**
 * Finishes a row only if this lease still holds it (a compare-and-set on the lease token, as
 * `completeLeased` does: a cancelled row or a lost lease changes nothing) and tells, in the same
 * round trip, whether its evaluation still had pending rows: their completions will close it, so
 * the caller may skip `finalizeEvaluations` (the sweeper's `finalizeSettled` is the safety net).
 */
export const completeRow = async (
  db: Knex,
  lease: { id: string; owner: string },
  evaluationId: string,
  completion: ReturnType<typeof completionOf>,
  now: Date,
): Promise<{ won: boolean; pendingLeft: boolean }> => {
  const result = await db.raw(
    `with done as (
       update evaluation_rows
          set status = ?, results = coalesce(?::jsonb, results), flagged = coalesce(?::boolean, flagged),
              discovered = coalesce(?::jsonb, discovered),
              error = ?::jsonb, completed_at = ?, updated_at = ?, lease_owner = null, lease_expires_at = null
        where id = ? and lease_owner = ? and status = 'running'
       returning id)
     select (select count(*)::int from done) as won,
            exists(select 1 from evaluation_rows r where r.evaluation_id = ? and r.status = 'pending') as pending_left`,
    [
      completion.status,
      completion.results,
      completion.flagged,
      completion.discovered,
      completion.error,
      now,
      now,
      lease.id,
      lease.owner,
      evaluationId,
    ],
  );
  const row = result.rows[0] as { won: number; pending_left: boolean };
  return { won: row.won === 1, pendingLeft: row.pending_left };
};

const SETTLE_SQL = `update evaluations e
    set status = case when s.completed then 'completed' else 'failed' end,
        error_message = case when s.completed then null
          else 'No row could be scored: every row failed (see the rows'' errors).' end,
        completed_at = ?, updated_at = ?
   from (select x.id, exists(select 1 from evaluation_rows r
                              where r.evaluation_id = x.id and r.status = 'completed') as completed
           from evaluations x
          where x.status in ('pending', 'running') and x.monitor_id is null %FILTER%
            and not exists (select 1 from evaluation_rows r
                             where r.evaluation_id = x.id and r.status in ('pending', 'running'))) s
  where e.id = s.id and e.status in ('pending', 'running')
  returning e.id, e.organization_id, e.workspace_id, e.call_import_id, e.status, e.error_message`;

type Settled = {
  id: string;
  organization_id: string;
  workspace_id: string;
  call_import_id: string;
  status: 'completed' | 'failed';
  error_message: string | null;
};

/** `evaluation.completed` / `evaluation.failed` of the evaluations just settled, with their row counts. */
const settledEvents = async (trx: Knex, settled: readonly Settled[]): Promise<EventToEmit[]> => {
  if (settled.length === 0) return [];
  const counts: Array<{
    evaluation_id: string;
    total: number;
    completed: number;
    failed: number;
    flagged: number;
  }> = await trx('evaluation_rows')
    .whereIn(
      'evaluation_id',
      settled.map((e) => e.id),
    )
    .groupBy('evaluation_id')
    .select(
      'evaluation_id',
      trx.raw('count(*)::int as total'),
      trx.raw("(count(*) filter (where status = 'completed'))::int as completed"),
      trx.raw("(count(*) filter (where status = 'failed'))::int as failed"),
      trx.raw("(count(*) filter (where status = 'completed' and flagged))::int as flagged"),
    );
  const byId = new Map(counts.map((c) => [c.evaluation_id, c]));
  return settled.map((e) => {
    const c = byId.get(e.id);
    return {
      organizationId: e.organization_id,
      type: e.status === 'completed' ? 'evaluation.completed' : 'evaluation.failed',
      data: {
        evaluation_id: e.id,
        workspace_id: e.workspace_id,
        call_import_id: e.call_import_id,
        status: e.status,
        total_rows: c?.total ?? 0,
        completed_rows: c?.completed ?? 0,
        failed_rows: c?.failed ?? 0,
        flagged_rows: c?.flagged ?? 0,
        error_message: e.error_message,
      },
    };
  });
};

/** Runs a settle statement and records its webhook events in the same transaction; returns the deliveries queued. */
const settle = (db: Knex, sql: string, bindings: readonly unknown[], now: Date) =>
  db.transaction(async (trx) => {
    const result = await trx.raw(sql, bindings as Knex.RawBinding[]);
    return emitEvents(trx, await settledEvents(trx, result.rows as Settled[]), now);
  });

/**
 * Closes evaluations with no pending or running row left: `completed` when at least one row was
 * scored, `failed` when none could be, recording `evaluation.completed` / `evaluation.failed` in
 * the same transaction (the webhook outbox). Each call runs after its caller's row update
 * committed, so whichever row finishes last always sees the others finished; the conditional
 * UPDATE lets only one caller close an evaluation, so its event is recorded once. Returns the
 * webhook deliveries queued.
 */
export const finalizeEvaluations = (db: Knex, evaluationIds: readonly string[], now: Date) =>
  evaluationIds.length === 0
    ? Promise.resolve(0)
    : settle(
        db,
        SETTLE_SQL.replace(
          '%FILTER%',
          'and x.id in (select value::uuid from json_array_elements_text(?::json))',
        ),
        [now, now, JSON.stringify(evaluationIds)],
        now,
      );

/** The sweeper's safety net: closes every active evaluation that has nothing left to run. */
export const finalizeSettled = (db: Knex, now: Date) =>
  settle(db, SETTLE_SQL.replace('%FILTER%', ''), [now, now], now);
