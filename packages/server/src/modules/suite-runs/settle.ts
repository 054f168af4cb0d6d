import type { Knex } from 'knex';
import { systemContext } from '../../context.js';
import type { Deps } from '../../deps.js';
import { ApiError } from '../../errors.js';
import { summariseVoice } from '../../voice/measures.js';
import { listProviderRecords } from '../ai-providers/service.js';
import { createEvaluation } from '../evaluations/create.js';
import { getSuite } from '../evaluator-suites/service.js';
import { DELIVER_TASK, type EventToEmit, emitEvents } from '../webhook-endpoints/service.js';
import { runConsoleUrl } from './console-url.js';
import type { RunRecord } from './repo.js';
import { scoredCalls, summarise, voiceMeasuresOf } from './summaries.js';

const contextOf = (run: RunRecord) =>
  systemContext(
    { organizationId: run.organization_id, workspaceId: run.workspace_id },
    `suite_run:${run.id}`,
  );

/** `suite_run.completed` / `suite_run.failed`, recorded in the transaction that finishes the run (the webhook outbox). */
const runEvent = (
  deps: Deps,
  run: RunRecord,
  outcome: {
    status: 'completed' | 'failed';
    evaluationId: string | null;
    passRate: number | null;
    error: string | null;
  },
): EventToEmit => ({
  organizationId: run.organization_id,
  type: outcome.status === 'completed' ? 'suite_run.completed' : 'suite_run.failed',
  data: {
    suite_run_id: run.id,
    suite_id: run.suite_id,
    workspace_id: run.workspace_id,
    evaluation_id: outcome.evaluationId,
    status: outcome.status,
    pass_rate: outcome.passRate,
    error_message: outcome.error,
    console_url: runConsoleUrl(deps, run.id),
  },
});

/** Rows of a run's import still waiting for their transcript (voice calls being diarised). */
const TRANSCRIBING = ['pending', 'running'];

/**
 * Locks a run whose calls have all ended, whose recorded calls all have their transcripts, and
 * that has not moved on yet.
 */
const lockCallsDone = (trx: Knex, runId: string) =>
  trx<RunRecord>('suite_runs as r')
    .where('r.id', runId)
    .whereIn('r.status', ['pending', 'running'])
    .whereNotExists((q) =>
      q
        .select(trx.raw('1'))
        .from('suite_run_calls')
        .where('run_id', runId)
        .whereIn('status', ['pending', 'running']),
    )
    .whereNotExists((q) =>
      q
        .select(trx.raw('1'))
        .from('call_import_rows as cr')
        .whereRaw('cr.call_import_id = r.call_import_id')
        .whereIn('cr.diarised_transcript_status', TRANSCRIBING),
    )
    .forUpdate()
    .first('r.*');

/** The suite's judge: its `llm_provider` (an active provider of the organization), else the default. */
const judgeOf = async (deps: Deps, run: RunRecord) => {
  const suite = await getSuite(deps, contextOf(run), run.suite_id);
  if (!suite.llm_provider) return { model: suite.llm_model ?? undefined };
  const records = await listProviderRecords(deps, run.organization_id);
  const picked = deps.providers.forOrganization(records, { provider: suite.llm_provider, purpose: 'chat' });
  return {
    model: suite.llm_model ?? undefined,
    ai_provider_id: picked.ok ? (picked.record_id ?? undefined) : undefined,
  };
};

/**
 * Moves a run whose calls have all ended to `evaluating`, starting the evaluation of its completed
 * calls with the metrics frozen at creation, in one transaction under the run's row lock (so one
 * instance does it, once). No completed call, or an evaluation that cannot start, fails the run.
 */
const startScoring = (deps: Deps, runId: string): Promise<boolean> =>
  deps.db.transaction(async (trx) => {
    const run = await lockCallsDone(trx, runId);
    if (!run) return false;
    const now = deps.now();
    const completed = (await trx('suite_run_calls')
      .where({ run_id: runId, status: 'completed' })
      .orderBy('position')
      .pluck('call_import_row_id')) as string[];
    const fail = async (message: string) => {
      await trx('suite_runs')
        .where({ id: runId })
        .update({ status: 'failed', error_message: message, finished_at: now, updated_at: now });
      const event = runEvent(deps, run, {
        status: 'failed',
        evaluationId: null,
        passRate: null,
        error: message,
      });
      await emitEvents(trx, [event], now);
    };
    if (completed.length === 0) {
      await fail('No call completed, so there is nothing to score (see the calls’ errors).');
      return true;
    }
    try {
      const scoped = { ...deps, db: trx };
      const evaluation = await createEvaluation(scoped, contextOf(run), {
        call_import_id: run.call_import_id,
        metric_ids: run.metric_ids,
        row_ids: completed,
        ...(await judgeOf(scoped, run)),
      });
      await trx('suite_runs')
        .where({ id: runId })
        .update({ status: 'evaluating', evaluation_id: evaluation.id, updated_at: now });
    } catch (error) {
      if (!(error instanceof ApiError)) throw error;
      await fail(`Scoring could not start: ${error.detail ?? error.message}`);
    }
    return true;
  });

/**
 * Completes a run in `evaluating` whose evaluation has finished: its summaries are computed from
 * the evaluation's results. An evaluation that failed or was cancelled fails the run.
 */
const finishScoring = (deps: Deps, runId: string): Promise<boolean> =>
  deps.db.transaction(async (trx) => {
    const run = await trx<RunRecord>('suite_runs')
      .where({ id: runId, status: 'evaluating' })
      .forUpdate()
      .first();
    if (!run?.evaluation_id) return false;
    const evaluation = await trx('evaluations')
      .where({ id: run.evaluation_id })
      .first('status', 'error_message');
    if (!evaluation || evaluation.status === 'pending' || evaluation.status === 'running') return false;
    const now = deps.now();
    if (evaluation.status !== 'completed') {
      const message = `Scoring ${evaluation.status}: ${evaluation.error_message ?? 'see the evaluation'}`;
      await trx('suite_runs')
        .where({ id: runId })
        .update({ status: 'failed', error_message: message, finished_at: now, updated_at: now });
      const failed = { status: 'failed' as const, passRate: null, error: message };
      await emitEvents(trx, [runEvent(deps, run, { ...failed, evaluationId: run.evaluation_id })], now);
      return true;
    }
    const summary = summarise(await scoredCalls(trx, run));
    const voice = run.channel === 'voice' ? summariseVoice(await voiceMeasuresOf(trx, run.id)) : null;
    await trx('suite_runs')
      .where({ id: runId })
      .update({
        status: 'completed',
        pass_rate: summary.passRate,
        metric_summary: JSON.stringify(summary.metrics),
        combination_summary: JSON.stringify(summary.combinations),
        voice_summary: voice ? JSON.stringify(voice) : null,
        finished_at: now,
        updated_at: now,
      });
    const completed = { status: 'completed' as const, passRate: summary.passRate, error: null };
    await emitEvents(trx, [runEvent(deps, run, { ...completed, evaluationId: run.evaluation_id })], now);
    return true;
  });

/** Moves a run on as far as its calls and evaluation allow; true when it changed. */
export const settleRun = async (deps: Deps, runId: string): Promise<boolean> => {
  const started = await startScoring(deps, runId);
  const finished = await finishScoring(deps, runId);
  if (started || finished) deps.workers.notify(DELIVER_TASK);
  return started || finished;
};

/** Settles the active runs whose calls are rows of an import (after one of its rows was diarised). */
export const settleRunsOfImport = async (deps: Deps, callImportId: string): Promise<void> => {
  const ids = (await deps
    .db('suite_runs')
    .where({ call_import_id: callImportId })
    .whereIn('status', ['pending', 'running'])
    .pluck('id')) as string[];
  for (const id of ids) await settleRun(deps, id);
};

/** The sweeper's safety net: settles every active run of any tenant that can move on. */
export const settleAll = async (deps: Deps): Promise<number> => {
  const result = await deps.db.raw(
    `select r.id from suite_runs r
      where (r.status in ('pending', 'running') and not exists (
               select 1 from suite_run_calls c where c.run_id = r.id and c.status in ('pending', 'running'))
             and not exists (
               select 1 from call_import_rows cr
                where cr.call_import_id = r.call_import_id and cr.diarised_transcript_status in ('pending', 'running')))
         or (r.status = 'evaluating' and exists (
               select 1 from evaluations e where e.id = r.evaluation_id and e.status not in ('pending', 'running')))`,
  );
  const ids = (result.rows as Array<{ id: string }>).map((r) => r.id);
  let moved = 0;
  for (const id of ids) if (await settleRun(deps, id)) moved += 1;
  return moved;
};
