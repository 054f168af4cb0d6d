import type {
  CancelDiarisationBody,
  CancelDiarisationResult,
  DiarisationError,
  TranscribeBodySchema,
  TranscribeResult,
} from '@voice-eval/contract';
import type { Knex } from 'knex';
import type { z } from 'zod';
import { actorLabel, type RequestContext } from '../../context.js';
import type { Deps } from '../../deps.js';
import { ApiError, notFound } from '../../errors.js';
import type { ProviderPurpose } from '../../providers/index.js';
import { listProviderRecords } from '../ai-providers/service.js';
import { DELIVER_TASK } from '../webhook-endpoints/service.js';
import * as work from './diarisation-repo.js';
import * as repo from './repo.js';
import type { RowTarget } from './row-repo.js';

/** The background task that diarises queued rows. */
export const DIARISE_TASK = 'call_import_row.diarise';

type TranscribeBody = z.output<typeof TranscribeBodySchema>;

/**
 * Checks up front that the organization has providers for the request (422
 * `ai_provider_not_configured` otherwise). Whether the chosen model accepts audio is not checked
 * here: a provider that cannot take audio leaves a typed error on each row, as the spec says.
 */
const assertProviders = async (deps: Deps, ctx: RequestContext, body: TranscribeBody) => {
  const records = await listProviderRecords(deps, ctx.organizationId);
  const wanted: Array<{ provider: string | null | undefined; purpose: ProviderPurpose }> = [
    { provider: body.diarization_llm_provider, purpose: 'chat' },
  ];
  if (body.mode === 'stt_llm') wanted.push({ provider: body.stt_provider, purpose: 'stt' });
  for (const selection of wanted) {
    const picked = deps.providers.forOrganization(records, selection);
    if (!picked.ok) throw new ApiError('ai_provider_not_configured', picked.error.message);
  }
};

const targetOf = (callImportId: string, rowIds: readonly string[] | null | undefined): RowTarget => ({
  callImportId,
  rowIds: rowIds ? [...new Set(rowIds)] : null,
});

const findImportOr404 = async (deps: Deps, ctx: RequestContext, id: string) => {
  const row = await repo.findImport(deps.db, ctx, id);
  if (!row) throw notFound('Call import');
  return row;
};

/**
 * Queues rows for diarisation, set-based whatever the number of rows: one INSERT of the request's
 * settings, one UPDATE queueing every eligible row, one grouped COUNT of the rest per skip reason
 * (the response names every skip; not needed when every targeted row was queued). Unknown row ids count as
 * `not_found`. Wakes this instance's workers.
 */
export const transcribeCallImport = async (
  deps: Deps,
  ctx: RequestContext,
  id: string,
  body: TranscribeBody,
): Promise<TranscribeResult> => {
  const callImport = await findImportOr404(deps, ctx, id);
  await assertProviders(deps, ctx, body);
  const target = targetOf(id, body.row_ids);
  const rules = { overwriteExisting: body.overwrite_existing, onlyMissing: body.only_missing };
  const diarisation = await work.insertDiarisation(deps.db, {
    call_import_id: id,
    mode: body.mode,
    llm_provider: body.diarization_llm_provider ?? null,
    llm_model: body.diarization_llm_model ?? null,
    stt_provider: body.stt_provider ?? null,
    stt_model: body.stt_model ?? null,
    prompt: body.diarization_prompt ?? null,
    created_by: actorLabel(ctx),
  });
  const queued = await work.queueRows(deps.db, target, diarisation.id, rules, deps.now());
  // every row of the target queued (the usual first transcription): nothing to classify
  const targeted = target.rowIds?.length ?? callImport.total_rows;
  const counts =
    queued === targeted
      ? new Map<string, number>()
      : await work.countSkipped(deps.db, target, diarisation.id, rules);
  const found = queued + [...counts.values()].reduce((a, b) => a + b, 0);
  if (target.rowIds && target.rowIds.length > found) counts.set('not_found', target.rowIds.length - found);
  if (queued > 0) deps.workers.notify(DIARISE_TASK);
  else await work.deleteDiarisation(deps.db, diarisation.id);
  const skipped = Object.fromEntries([...counts].filter(([, n]) => n > 0));
  return {
    queued,
    skipped_rows: Object.values(skipped).reduce((a, b) => a + b, 0),
    skipped_reason_counts: skipped,
    accepted: queued > 0,
  };
};

/**
 * Cancels pending and running rows (all of the import's, or the listed ones) in one UPDATE: they
 * become `failed` with the error `cancelled`. Other rows, and unknown ids, count as skipped.
 */
export const cancelDiarisation = async (
  deps: Deps,
  ctx: RequestContext,
  id: string,
  body: CancelDiarisationBody,
): Promise<CancelDiarisationResult> => {
  await findImportOr404(deps, ctx, id);
  const target = targetOf(id, body?.row_ids);
  const targeted = target.rowIds ? target.rowIds.length : await work.countTarget(deps.db, target);
  const now = deps.now();
  const error = {
    code: 'cancelled' as const,
    message: `Cancelled by ${actorLabel(ctx)}.`,
    provider: null,
    model: null,
    at: now.toISOString(),
  };
  const cancelled = await work.cancelRows(deps.db, target, error, now);
  if (cancelled > 0 && (await work.settleTranscriptions(deps.db, [id], now)) > 0) {
    deps.workers.notify(DELIVER_TASK);
  }
  return { cancelled, skipped: Math.max(0, targeted - cancelled) };
};

/**
 * Cancels the diarisation of every pending and running row of an import inside the caller's
 * transaction (a suite run being cancelled); the caller settles what waits on it.
 */
export const cancelImportDiarisation = (
  trx: Knex,
  callImportId: string,
  error: DiarisationError,
  now: Date,
): Promise<number> => work.cancelRows(trx, { callImportId, rowIds: null }, error, now);
