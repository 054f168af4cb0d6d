import type { Evaluation, EvaluationCreateBodySchema, Metric } from '@voice-eval/contract';
import type { z } from 'zod';
import { actorLabel, type RequestContext } from '../../context.js';
import type { Deps } from '../../deps.js';
import { enrolTenants } from '../../dispatch/repo.js';
import { ApiError } from '../../errors.js';
import { listProviderRecords } from '../ai-providers/service.js';
import { getCallImport } from '../call-imports/service.js';
import { getEvaluator } from '../evaluators/service.js';
import { resolveActiveMetrics } from '../metrics/service.js';
import { loadPolicies } from './policies.js';
import * as repo from './repo.js';
import { type MetricSnapshot, snapshotMetric } from './results.js';
import { hydrate, wakeDispatch } from './service.js';

type CreateBody = z.output<typeof EvaluationCreateBodySchema>;

const ruleViolation = (detail: string, path: string, message: string) =>
  new ApiError('rule_violation', detail, { errors: [{ path, message }] });

/** The active metrics to score: the evaluator's (404 for an unknown evaluator), or the ones listed. */
const chooseMetrics = async (deps: Deps, ctx: RequestContext, body: CreateBody) => {
  if (!body.evaluator_id)
    return { metrics: await resolveActiveMetrics(deps, ctx, body.metric_ids ?? []), evaluatorId: null };
  const evaluator = await getEvaluator(deps, ctx, body.evaluator_id);
  if (evaluator.metric_ids.length === 0) {
    throw ruleViolation(
      'The evaluator has no metrics to score.',
      'body.evaluator_id',
      'The evaluator lists no metric',
    );
  }
  const metrics = await resolveActiveMetrics(deps, ctx, evaluator.metric_ids, 'body.evaluator_id');
  return { metrics, evaluatorId: evaluator.id };
};

/**
 * The judge: the AI provider named by `ai_provider_id` (an active provider of the organization,
 * else 422), or the organization's default provider, else the server default (422
 * `ai_provider_not_configured` when there is none or it cannot be routed).
 */
export const chooseJudge = async (deps: Deps, ctx: RequestContext, aiProviderId: string | undefined) => {
  const records = await listProviderRecords(deps, ctx.organizationId);
  let picked = deps.providers.forOrganization(records, { purpose: 'chat' });
  if (aiProviderId) {
    const record = records.find((r) => r.id === aiProviderId);
    if (!record) {
      throw ruleViolation(
        'The AI provider is not an active provider of this organization.',
        'body.ai_provider_id',
        'Not an active AI provider of this organization',
      );
    }
    picked = deps.providers.forRecord(record);
  }
  if (!picked.ok) throw new ApiError('ai_provider_not_configured', picked.error.message);
  return { aiProviderId: aiProviderId ?? null, provider: picked.provider.name };
};

/** Freezes the metrics with the workspace's failure policies (configured, else inferred). */
export const freezeMetrics = async (
  deps: Deps,
  ctx: RequestContext,
  metrics: Metric[],
): Promise<MetricSnapshot[]> => {
  const effective = await loadPolicies(deps, ctx);
  const policies = new Map(effective.entries.map((entry) => [entry.metric.id, entry.policy]));
  return metrics.map((metric) => {
    const policy = policies.get(metric.id);
    return snapshotMetric(
      metric,
      policy && {
        failure_values: policy.failure_values,
        failure_child_names: policy.failure_child_names,
        numeric_rule: policy.numeric_rule,
      },
    );
  });
};

/** Every listed row id must be a row of the import (422 listing the others). */
const assertRowsOfImport = async (deps: Deps, callImportId: string, rowIds: readonly string[]) => {
  const found = new Set(await repo.existingCallRowIds(deps.db, callImportId, rowIds));
  const errors = rowIds.flatMap((id, i) =>
    found.has(id) ? [] : [{ path: `body.row_ids.${i}`, message: 'Not a row of this call import' }],
  );
  if (errors.length > 0)
    throw new ApiError('rule_violation', 'Some rows are not rows of this call import.', { errors });
};

/**
 * Starts an evaluation of a call import of the workspace: one pending evaluation row per chosen
 * call row (the listed ones, else every row with a transcript), all created in one statement with
 * the evaluation, then handed to the fair dispatcher. A listed row without a transcript fails with
 * `transcript_unavailable` when its turn comes (its transcription may still be running now).
 */
export const createEvaluation = async (
  deps: Deps,
  ctx: RequestContext,
  body: CreateBody,
): Promise<Evaluation> => {
  const callImport = await getCallImport(deps, ctx, body.call_import_id);
  const { metrics, evaluatorId } = await chooseMetrics(deps, ctx, body);
  const judge = await chooseJudge(deps, ctx, body.ai_provider_id);
  const snapshots = await freezeMetrics(deps, ctx, metrics);
  if (body.row_ids) await assertRowsOfImport(deps, callImport.id, body.row_ids);
  return startEvaluation(deps, ctx, {
    callImportId: callImport.id,
    evaluatorId,
    snapshots,
    judge,
    model: body.model ?? null,
    rowIds: body.row_ids ? [...new Set(body.row_ids)] : null,
  });
};

/**
 * Starts an evaluation of checked rows (null: every row with a transcript) of a call import of
 * the workspace, with frozen metrics and a chosen judge (see `createEvaluation`).
 */
export const startEvaluation = async (
  deps: Deps,
  ctx: RequestContext,
  what: {
    callImportId: string;
    evaluatorId: string | null;
    snapshots: MetricSnapshot[];
    judge: { aiProviderId: string | null; provider: string };
    model: string | null;
    rowIds: readonly string[] | null;
  },
): Promise<Evaluation> => {
  const now = deps.now();
  // outside the transaction: a dispatch pass updates these cursors under its lock, and waiting on
  // them while holding the import's row (the latest-status trigger) could deadlock with it
  await enrolTenants(deps.db, ctx.organizationId, ctx.workspaceId);
  const created = await deps.db.transaction(async (trx) => {
    const evaluation = await repo.insertEvaluation(trx, {
      organization_id: ctx.organizationId,
      workspace_id: ctx.workspaceId,
      call_import_id: what.callImportId,
      evaluator_id: what.evaluatorId,
      metric_ids: what.snapshots.map((m) => m.id),
      metrics: what.snapshots,
      ai_provider_id: what.judge.aiProviderId,
      provider: what.judge.provider,
      model: what.model,
      created_by: actorLabel(ctx),
    });
    if ((await repo.insertRows(trx, evaluation, what.rowIds, now)) === 0) {
      throw ruleViolation(
        'The call import has no row with a transcript to evaluate.',
        'body.call_import_id',
        'No row has a transcript yet',
      );
    }
    return evaluation;
  });
  wakeDispatch(deps);
  return (await hydrate(deps, [created]))[0]!;
};
