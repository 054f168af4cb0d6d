import type { TranscriptTurn } from '@voice-eval/contract';
import type { Knex } from 'knex';
import type { WorkTable } from '../../workers/lease.js';
import type { MetricSnapshot } from './results.js';
import type { ScoreOutcome } from './score.js';

/** Evaluation rows are the work items of scoring (DESIGN §7). */
export const EVALUATION_WORK: WorkTable = {
  table: 'evaluation_rows',
  status: 'status',
  errorColumn: 'error',
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
};

/**
 * Completes rows just claimed (a CTE named `started` returning evaluation_rows columns) into what
 * a worker needs, so a claim hands out ready-to-score rows in the same statement.
 */
export const SCORING_CONTEXT_SELECT = `select s.id, s.evaluation_id, s.organization_id, s.workspace_id, s.call_import_row_id,
         s.conversation_id, s.lease_owner, s.attempts, e.metrics, e.ai_provider_id, e.model,
         cr.diarised_transcript, cr.diarised_transcript_status, cr.source_transcript
    from started s
    join evaluations e on e.id = s.evaluation_id
    join call_import_rows cr on cr.id = s.call_import_row_id`;

/** The final write of a row: its results, or its typed error. */
export const completionOf = (outcome: ScoreOutcome) =>
  outcome.ok
    ? { status: 'completed', results: JSON.stringify(outcome.results), flagged: outcome.flagged, error: null }
    : { status: 'failed', results: null, flagged: null, error: JSON.stringify(outcome.error) };

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
              error = ?::jsonb, completed_at = ?, updated_at = ?, lease_owner = null, lease_expires_at = null
        where id = ? and lease_owner = ? and status = 'running'
       returning id)
     select (select count(*)::int from done) as won,
            exists(select 1 from evaluation_rows r where r.evaluation_id = ? and r.status = 'pending') as pending_left`,
    [
      completion.status,
      completion.results,
      completion.flagged,
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
          where x.status in ('pending', 'running') %FILTER%
            and not exists (select 1 from evaluation_rows r
                             where r.evaluation_id = x.id and r.status in ('pending', 'running'))) s
  where e.id = s.id and e.status in ('pending', 'running')`;

/**
 * Closes evaluations with no pending or running row left: `completed` when at least one row was
 * scored, `failed` when none could be. Each call runs after its caller's row update committed,
 * so whichever row finishes last always sees the others finished.
 */
export const finalizeEvaluations = (db: Knex, evaluationIds: readonly string[], now: Date) =>
  evaluationIds.length === 0
    ? Promise.resolve(0)
    : db.raw(
        SETTLE_SQL.replace(
          '%FILTER%',
          'and x.id in (select value::uuid from json_array_elements_text(?::json))',
        ),
        [now, now, JSON.stringify(evaluationIds)],
      );

/** The sweeper's safety net: closes every active evaluation that has nothing left to run. */
export const finalizeSettled = (db: Knex, now: Date) =>
  db.raw(SETTLE_SQL.replace('%FILTER%', ''), [now, now]);

/**
 * Returns rows whose lease expired to `pending` (they keep their place), or fails them with
 * `attempts_exhausted` once they used `maxAttempts`. Returns how many of each.
 */
export const sweepExpiredRows = async (db: Knex, now: Date, maxAttempts: number) => {
  const expired = () => db('evaluation_rows').where('status', 'running').where('lease_expires_at', '<', now);
  const error = {
    code: 'attempts_exhausted',
    message: `Gave up after ${maxAttempts} attempts whose workers stopped answering.`,
    provider: null,
    model: null,
    at: now.toISOString(),
  };
  const failed = await expired()
    .where('attempts', '>=', maxAttempts)
    .update({
      status: 'failed',
      error: JSON.stringify(error),
      lease_owner: null,
      lease_expires_at: null,
      completed_at: now,
      updated_at: now,
    });
  const requeued = await expired()
    .where('attempts', '<', maxAttempts)
    .update({ status: 'pending', lease_owner: null, lease_expires_at: null, updated_at: now });
  return { requeued, failed };
};
