import type { Knex } from 'knex';
import type { Deps } from '../../deps.js';
import {
  addContinuousRows,
  type ContinuousRow,
  HAS_TRANSCRIPT,
  scoresWithoutJudge,
} from '../evaluations/continuous.js';
import { raiseAlerts, type Scored } from './alerts.js';
import type * as repo from './repo.js';

/** The background task that moves a monitor's calls along and raises its alerts. */
export const MONITOR_TASK = 'monitor.advance';

/**
 * A call that can be scored now: it has a transcript, or will never get one (no recording to
 * transcribe, or its transcription failed; the judge then records `transcript_unavailable`).
 */
const READY = `(${HAS_TRANSCRIPT}
  or cr.diarised_transcript_status = 'failed'
  or (pc.recording_status in ('none', 'failed')
      and coalesce(cr.diarised_transcript_status, 'none') not in ('pending', 'running')))`;

/** Calls one pass queues, and calls whose outcome it records, at most (a full pass is followed by another). */
const PASS_SIZE = 500;

/**
 * Settles at once the waiting calls the monitor does not judge: `not_sampled`, with no evaluation
 * row and no wait for a transcript. Only for a monitor whose metrics all need the judge (nothing
 * else would score them); one with model-free metrics queues them like the others. Returns how many.
 */
const settleUnjudged = async (trx: Knex, monitor: repo.MonitorRow, now: Date): Promise<number> =>
  trx('monitor_calls')
    .where({ monitor_id: monitor.id, state: 'waiting', sampled: false })
    .update({ state: 'done', outcome: 'not_sampled', scored_at: now });

/**
 * Queues an evaluation row for each waiting call that is ready: the judged ones, and the others too
 * when the monitor has model-free metrics (`allCalls`). Returns how many. (A call not judged that
 * lands while this pass runs is left waiting for the next pass when `allCalls` is false.)
 */
const queueReady = async (
  trx: Knex,
  monitor: repo.MonitorRow,
  now: Date,
  allCalls: boolean,
): Promise<number> => {
  if (!monitor.evaluation_id) return 0;
  const ready: ContinuousRow[] = (
    await trx.raw(
      `select c.call_import_row_id, c.sampled
         from monitor_calls c
         join call_import_rows cr on cr.id = c.call_import_row_id
         join production_calls pc on pc.id = c.production_call_id
        where c.monitor_id = ? and c.state = 'waiting' and (c.sampled or ?::boolean) and ${READY}
        order by c.seq
        limit ${PASS_SIZE}`,
      [monitor.id, allCalls],
    )
  ).rows;
  const queued = await addContinuousRows(trx, monitor.evaluation_id, ready, now);
  if (queued.length > 0) {
    await trx.raw(
      `update monitor_calls c set state = 'scoring', evaluation_row_id = q.id
         from json_to_recordset(?::json) as q(id uuid, call_import_row_id uuid)
        where c.monitor_id = ? and c.call_import_row_id = q.call_import_row_id`,
      [JSON.stringify(queued), monitor.id],
    );
  }
  return queued.length;
};

type SettledRow = {
  production_call_id: string;
  call_import_row_id: string;
  seq: number;
  sampled: boolean;
  status: string | null;
  flagged: boolean | null;
  results: Array<{ metric_id: string; metric_name: string; flagged: boolean }> | null;
  discovered: Array<{ key: string; name: string }> | null;
};

/**
 * Records the outcome of every call whose evaluation row finished:
 * - `failed`: a metric flagged it (a call not sampled is scored by its model-free metrics only);
 * - `passed`: the judge passed it;
 * - `not_sampled`: nothing judged it;
 * - `error`: it could not be scored (no transcript, the judge failed, the row was cancelled or
 *   deleted). These are the platform's own failures, which no rule counts.
 * A problem the judge discovered outside the metrics is one of a failed call's failures.
 */
const recordOutcomes = async (trx: Knex, monitorId: string, now: Date, names: Map<string, string>) => {
  const settled: SettledRow[] = (
    await trx.raw(
      `select c.production_call_id, c.call_import_row_id, c.seq, c.sampled, r.status, r.flagged, r.results, r.discovered
         from monitor_calls c
         left join evaluation_rows r on r.id = c.evaluation_row_id
        where c.monitor_id = ? and c.state = 'scoring'
          and (r.id is null or r.status in ('completed', 'failed', 'cancelled'))
        order by c.seq
        limit ${PASS_SIZE}`,
      [monitorId],
    )
  ).rows;
  const scored: Scored[] = settled.map((row) => {
    if (row.status !== 'completed') return { ...pick(row), outcome: 'error', failures: [] };
    const metrics = (row.results ?? []).filter((r) => r.flagged);
    for (const r of metrics) names.set(`metric:${r.metric_id}`, r.metric_name);
    for (const d of row.discovered ?? []) names.set(`discovered:${d.key}`, d.name);
    const failures = [
      ...metrics.map((r) => `metric:${r.metric_id}`),
      ...(row.flagged ? (row.discovered ?? []).map((d) => `discovered:${d.key}`) : []),
    ];
    const outcome = row.flagged ? 'failed' : row.sampled ? 'passed' : 'not_sampled';
    return { ...pick(row), outcome, failures };
  });
  if (scored.length > 0) {
    await trx.raw(
      `update monitor_calls c set state = 'done', outcome = x.outcome, failures = x.failures, scored_at = ?
         from json_to_recordset(?::json) as x(production_call_id uuid, outcome text, failures jsonb)
        where c.monitor_id = ? and c.production_call_id = x.production_call_id`,
      [now, JSON.stringify(scored), monitorId],
    );
  }
  return scored;
};

const pick = (row: SettledRow) => ({
  production_call_id: row.production_call_id,
  call_import_row_id: row.call_import_row_id,
  seq: row.seq,
  sampled: row.sampled,
});

/** What one pass over a monitor did. */
export type Advanced = { queued: number; scored: number; alerts: number; deliveries: number };

const NOTHING: Advanced = { queued: 0, scored: 0, alerts: 0, deliveries: 0 };

/**
 * One pass over a monitor, in one transaction under a lock of its own (so two instances never
 * judge the same calls twice, and a cooldown is read and written by one of them at a time): queues
 * the calls that became scorable, records the outcomes of the calls scored since, then checks the
 * rules against those. Another instance holding the monitor makes this pass a no-op.
 */
export const advanceMonitor = async (deps: Deps, monitorId: string): Promise<Advanced> =>
  deps.db.transaction(async (trx) => {
    const locked = await trx.raw('select pg_try_advisory_xact_lock(hashtext(?)) as held', [
      `monitor:${monitorId}`,
    ]);
    if (!locked.rows[0]?.held) return NOTHING;
    const monitor: repo.MonitorRow | undefined = await trx('monitors').where({ id: monitorId }).first();
    if (!monitor) return NOTHING;
    const now = deps.now();
    // a monitor whose metrics all need the judge has nothing to score a call it does not judge
    const allCalls = monitor.evaluation_id !== null && (await scoresWithoutJudge(trx, monitor.evaluation_id));
    const settled = allCalls ? 0 : await settleUnjudged(trx, monitor, now);
    const queued = settled + (await queueReady(trx, monitor, now, allCalls));
    const names = new Map<string, string>();
    const scored = await recordOutcomes(trx, monitor.id, now, names);
    const raised = scored.length > 0 ? await raiseAlerts(trx, monitor, scored, names, now) : NOTHING;
    return { queued, scored: scored.length, alerts: raised.alerts, deliveries: raised.deliveries };
  });

/** Monitors with calls on their way or Slack posts due, other than `busy`. */
export const monitorsWithWork = (db: Knex, busy: readonly string[], limit: number): Promise<string[]> =>
  db('monitors as m')
    .where((q) =>
      q
        .whereExists((e) =>
          e
            .select(db.raw('1'))
            .from('monitor_calls as c')
            .whereRaw("c.monitor_id = m.id and c.state <> 'done'"),
        )
        .orWhereExists((e) =>
          e
            .select(db.raw('1'))
            .from('monitor_alerts as a')
            .whereRaw("a.monitor_id = m.id and a.slack_status = 'pending'"),
        ),
    )
    .whereNotIn('m.id', busy)
    .limit(limit)
    .pluck('m.id');
