import type { SuiteRun } from '@voice-eval/contract';
import { actorLabel, type RequestContext } from '../../context.js';
import type { Deps } from '../../deps.js';
import { ApiError, notFound } from '../../errors.js';
import { cancelImportDiarisation } from '../call-imports/transcribe.js';
import { cancelEvaluation } from '../evaluations/service.js';
import * as repo from './repo.js';
import { hydrate, scopeOf } from './service.js';

/**
 * Cancels a run that has not finished: pending calls never start, running calls become `cancelled`
 * at once (their workers' final writes then lose the lease check, so nothing is overwritten later),
 * recordings waiting for their transcripts are not diarised, and an evaluation already scoring the
 * calls is cancelled too. Cancelling a cancelled run returns
 * it unchanged; a completed or failed one is a 409.
 */
export const cancelRun = async (deps: Deps, ctx: RequestContext, id: string): Promise<SuiteRun> => {
  const now = deps.now();
  const row = await deps.db.transaction(async (trx) => {
    const run = await repo.findRunForUpdate(trx, scopeOf(ctx), id);
    if (!run) throw notFound('Suite run');
    if (run.status === 'cancelled') return run;
    if (run.status === 'completed' || run.status === 'failed') {
      throw new ApiError('conflict', `The run is already ${run.status}.`);
    }
    const error = {
      code: 'cancelled' as const,
      message: `Cancelled by ${actorLabel(ctx)}.`,
      at: now.toISOString(),
    };
    await repo.cancelCalls(trx, id, error, now);
    await cancelImportDiarisation(trx, run.call_import_id, { ...error, provider: null, model: null }, now);
    return repo.updateRun(trx, id, { status: 'cancelled', finished_at: now, updated_at: now });
  });
  if (row.evaluation_id) {
    try {
      await cancelEvaluation(deps, ctx, row.evaluation_id);
    } catch (error) {
      // an evaluation that finished meanwhile stays as it is: the run is cancelled either way
      if (!(error instanceof ApiError) || error.code !== 'conflict') throw error;
    }
  }
  deps.dispatcher.wake();
  return (await hydrate(deps, [row]))[0]!;
};
