import type { ConsistencyCheck, ConsistencyCheckCreateBodySchema, PageQuery } from '@voice-eval/contract';
import type { z } from 'zod';
import { actorLabel, type RequestContext } from '../../context.js';
import { paginate } from '../../db/paginate.js';
import { iso } from '../../db/rows.js';
import type { Deps } from '../../deps.js';
import { ApiError, notFound } from '../../errors.js';
import { proportion, seededRandom, shuffled } from '../../stats/index.js';
import { callsOfImport } from '../call-imports/service.js';
import { chooseJudge, freezeMetrics, startEvaluation } from '../evaluations/create.js';
import { getEvaluation, judgeOfEvaluation, scoredRowsOf } from '../evaluations/service.js';
import { valueKey } from '../labels/service.js';
import { getMetric } from '../metrics/service.js';
import * as repo from './repo.js';

type CreateBody = z.output<typeof ConsistencyCheckCreateBodySchema>;

const violation = (detail: string, path: string, message: string) =>
  new ApiError('rule_violation', detail, { errors: [{ path, message }] });

/** A share of the calls with its Wilson interval, as the wire has it. */
const rate = (count: number, n: number) => {
  const share = proportion(count, n);
  return share && { estimate: share.estimate, low: share.low, high: share.high };
};

/** An evaluation's state and scored calls; one that is gone (its import deleted) has ended with none. */
const repeatOf = async (deps: Deps, ctx: RequestContext, evaluationId: string) => {
  try {
    const [evaluation, rows] = await Promise.all([
      getEvaluation(deps, ctx, evaluationId),
      scoredRowsOf(deps, ctx, evaluationId),
    ]);
    return { running: evaluation.status === 'pending' || evaluation.status === 'running', rows };
  } catch (error) {
    if (error instanceof ApiError && error.code === 'not_found') return { running: false, rows: [] };
    throw error;
  }
};

/**
 * A check with what its repeats found so far: each call every repeat scored is an item; it flips
 * when its verdicts (flagged or not) differ, and its value changes when its values do.
 */
export const toCheck = async (
  deps: Deps,
  ctx: RequestContext,
  row: repo.CheckRow,
): Promise<ConsistencyCheck> => {
  const repeats = await Promise.all(row.evaluation_ids.map((id) => repeatOf(deps, ctx, id)));
  const scores = new Map<string, Array<{ flagged: boolean; value: string }>>();
  for (const repeat of repeats) {
    for (const scored of repeat.rows) {
      const result = scored.results.find((r) => r.metric_id === row.metric_id);
      if (!result) continue;
      const seen = scores.get(scored.call_import_row_id) ?? [];
      seen.push({ flagged: result.flagged, value: valueKey(result.value) });
      scores.set(scored.call_import_row_id, seen);
    }
  }
  const complete = [...scores.values()].filter((s) => s.length === row.evaluation_ids.length);
  const flipped = complete.filter((s) => new Set(s.map((x) => x.flagged)).size > 1).length;
  const changed = complete.filter((s) => new Set(s.map((x) => x.value)).size > 1).length;
  return {
    id: row.id,
    organization_id: row.organization_id,
    workspace_id: row.workspace_id,
    metric_id: row.metric_id,
    version: row.version,
    source: row.source as ConsistencyCheck['source'],
    calls: row.calls,
    repeats: row.repeats,
    seed: row.seed,
    ai_provider_id: row.ai_provider_id,
    provider: row.provider,
    model: row.model,
    evaluation_ids: row.evaluation_ids,
    status: repeats.some((r) => r.running) ? 'running' : 'completed',
    n: complete.length,
    flipped,
    flip_rate: rate(flipped, complete.length),
    value_changed: changed,
    value_change_rate: rate(changed, complete.length),
    created_by: row.created_by,
    created_at: iso(row.created_at),
  };
};

/** The source's calls to sample from, and the judge settings it was scored with (an evaluation's). */
const sourceOf = async (deps: Deps, ctx: RequestContext, source: CreateBody['source']) => {
  if (source.kind === 'call_import') {
    const calls = await callsOfImport(deps, ctx, source.call_import_id);
    return { callImportId: source.call_import_id, rowIds: calls.map((c) => c.id), judge: null };
  }
  const judge = await judgeOfEvaluation(deps, ctx, source.evaluation_id);
  const rows = await scoredRowsOf(deps, ctx, source.evaluation_id);
  return { callImportId: judge.callImportId, rowIds: rows.map((r) => r.call_import_row_id), judge };
};

/**
 * Starts a consistency check of an active top-level metric: a seeded sample of the source's calls,
 * each scored `repeats` times with the metric's current version and one judge (the source
 * evaluation's provider and model unless the body names others), each repeat an evaluation.
 */
export const createCheck = async (
  deps: Deps,
  ctx: RequestContext,
  metricId: string,
  body: CreateBody,
): Promise<ConsistencyCheck> => {
  const metric = await getMetric(deps, ctx, metricId);
  if (metric.parent_metric_id) {
    throw violation(
      'A child metric is judged with its parent: check the parent.',
      'params.metric_id',
      'A child metric',
    );
  }
  if (metric.lifecycle !== 'active') {
    throw violation('A draft metric is not scored: promote it first.', 'params.metric_id', 'A draft metric');
  }
  const [snapshot] = await freezeMetrics(deps, ctx, [metric]);
  if (snapshot?.voice_measure) {
    throw violation(
      'A voice metric is measured, not judged: it cannot flip.',
      'params.metric_id',
      'A voice metric',
    );
  }
  const source = await sourceOf(deps, ctx, body.source);
  if (source.rowIds.length < 2) {
    throw violation('The source has fewer than two calls to score.', 'body.source', 'Fewer than two calls');
  }
  const seed = body.seed ?? Math.floor(Math.random() * 2_147_483_647);
  const sample = shuffled(source.rowIds, seededRandom(seed)).slice(0, body.sample_size);
  const judge = await chooseJudge(deps, ctx, body.ai_provider_id ?? source.judge?.aiProviderId ?? undefined);
  const model = body.model ?? source.judge?.model ?? null;
  const evaluationIds: string[] = [];
  for (let k = 0; k < body.repeats; k++) {
    const evaluation = await startEvaluation(deps, ctx, {
      callImportId: source.callImportId,
      evaluatorId: null,
      snapshots: [snapshot!],
      judge,
      model,
      rowIds: sample,
    });
    evaluationIds.push(evaluation.id);
  }
  const row = await repo.insertCheck(deps.db, {
    organization_id: ctx.organizationId,
    workspace_id: ctx.workspaceId,
    metric_id: metric.id,
    version: metric.version,
    source: body.source,
    calls: sample.length,
    repeats: body.repeats,
    seed,
    ai_provider_id: judge.aiProviderId,
    provider: judge.provider,
    model,
    evaluation_ids: evaluationIds,
    created_by: actorLabel(ctx),
    created_at: deps.now(),
  });
  return toCheck(deps, ctx, row);
};

/** A metric's checks, newest first. */
export const listChecks = async (deps: Deps, ctx: RequestContext, metricId: string, query: PageQuery) => {
  await getMetric(deps, ctx, metricId);
  const page = await paginate(repo.checksQuery(deps.db, ctx, metricId), query, (row: repo.CheckRow) => row);
  const items = [];
  for (const row of page.items) items.push(await toCheck(deps, ctx, row));
  return { ...page, items };
};

/** One of a metric's checks; 404 for an unknown one. */
export const getCheck = async (deps: Deps, ctx: RequestContext, metricId: string, id: string) => {
  await getMetric(deps, ctx, metricId);
  const row = await repo.findCheck(deps.db, ctx, metricId, id);
  if (!row) throw notFound('Consistency check');
  return toCheck(deps, ctx, row);
};

/**
 * The judge's flip rate of each of these metric versions: from its latest completed check that
 * scored any call (none: absent), with the check's id.
 */
export const judgeFlipRates = async (
  deps: Deps,
  ctx: RequestContext,
  versions: ReadonlyArray<{ metricId: string; version: number }>,
): Promise<Map<string, { flipRate: number; checkId: string }>> => {
  const found = new Map<string, { flipRate: number; checkId: string }>();
  for (const row of await repo.checksOfVersions(deps.db, ctx, versions)) {
    if (found.has(row.metric_id)) continue;
    const check = await toCheck(deps, ctx, row);
    if (check.status === 'completed' && check.flip_rate) {
      found.set(row.metric_id, { flipRate: check.flip_rate.estimate, checkId: check.id });
    }
  }
  return found;
};
