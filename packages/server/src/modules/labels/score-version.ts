import type { MetricVersionScoreBody, MetricVersionScoring } from '@voice-eval/contract';
import type { RequestContext } from '../../context.js';
import type { Deps } from '../../deps.js';
import { ApiError, notFound } from '../../errors.js';
import { visibleCallRows } from '../call-imports/service.js';
import { chooseJudge, freezeMetrics, startEvaluation } from '../evaluations/create.js';
import { judgedValues, valuesBeingJudged } from '../evaluations/service.js';
import { getMetric } from '../metrics/service.js';
import { findMetricVersion, metricAtVersion } from '../metrics/versions.js';
import * as repo from './repo.js';

const violation = (detail: string, path: string, message: string) =>
  new ApiError('rule_violation', detail, { errors: [{ path, message }] });

/**
 * Scores a version of a metric (a draft, to try it before promoting it, or any other) on the
 * calls people labelled on the metric that it has no score for and is not being scored on: one
 * evaluation per call import that holds them, judged like an evaluation. Its agreement then reads
 * `GET /metrics/{id}/agreement?version=`, beside another version's with `baseline_version`.
 */
export const scoreVersionOnLabels = async (
  deps: Deps,
  ctx: RequestContext,
  metricId: string,
  version: number,
  body: MetricVersionScoreBody,
): Promise<MetricVersionScoring> => {
  const metric = await getMetric(deps, ctx, metricId);
  const picked = await findMetricVersion(deps, ctx, metricId, version);
  if (!picked) throw notFound('Metric version');
  const { metric_type, selection_mode } = picked.definition;
  if (metric_type !== metric.metric_type || selection_mode !== metric.selection_mode) {
    throw violation(
      `Version ${version} judged another type of value than people label now.`,
      'params.version',
      `Type ${metric_type}, the metric's is ${metric.metric_type}`,
    );
  }
  const rowIds = [
    ...new Set((await repo.allLabels(deps.db, ctx, metric.id)).map((l) => l.call_import_row_id)),
  ];
  if (rowIds.length === 0) {
    throw violation('No call is labelled on this metric yet.', 'params.metric_id', 'No labelled call');
  }
  const judge = await chooseJudge(deps, ctx, body.ai_provider_id);
  const [calls, scored, busy, snapshots] = await Promise.all([
    visibleCallRows(deps, ctx, rowIds),
    judgedValues(deps, ctx, metric.id, version, rowIds),
    valuesBeingJudged(deps, ctx, metric.id, version, rowIds),
    freezeMetrics(deps, ctx, [metricAtVersion(metric, picked)]),
  ]);
  const labelled = rowIds.filter((id) => calls.has(id));
  const byImport = new Map<string, string[]>();
  for (const id of labelled) {
    if (scored.has(id) || busy.has(id)) continue;
    const importId = calls.get(id)!.call_import_id;
    byImport.set(importId, [...(byImport.get(importId) ?? []), id]);
  }
  const evaluations = [];
  for (const [callImportId, ids] of byImport) {
    evaluations.push(
      await startEvaluation(deps, ctx, {
        callImportId,
        evaluatorId: null,
        snapshots,
        judge,
        model: body.model ?? null,
        rowIds: ids,
      }),
    );
  }
  return {
    metric_id: metric.id,
    version,
    labelled: labelled.length,
    already_scored: labelled.length - [...byImport.values()].reduce((n, ids) => n + ids.length, 0),
    evaluations,
  };
};
