import type { FailurePolicies, MetricClustersGenerateBody, MetricClustersReport } from '@voice-eval/contract';
import { actorLabel, type RequestContext } from '../../context.js';
import type { Deps } from '../../deps.js';
import { loadPolicies, toFailurePolicies } from '../evaluations/policies.js';
import * as repo from './repo.js';
import { DEFAULT_MAX_LLM_CALLS, toReport } from './report-wire.js';
import {
  normaliseScope,
  type ReportScope,
  resolveScope,
  type ScopeInput,
  type ScopeNames,
  scopeHash,
} from './scope.js';

export { updateFailurePolicies } from '../evaluations/policies.js';

/** The worker task that generates reports (`noun.verb`). */
export const GENERATE_TASK = 'metric_cluster_report.generate';

const reportFor = async (
  deps: Deps,
  ctx: RequestContext,
  scope: ReportScope,
  names: ScopeNames,
  row: repo.ReportRow | undefined,
) => {
  const [policies, completed] = await Promise.all([
    loadPolicies(deps, ctx),
    repo.countScoped(deps.db, ctx, scope),
  ]);
  return toReport(row, { scope, names, policies, completed });
};

/**
 * The stored report of a scope (GET). Equal filters read the same report; a scope never
 * generated is `idle`, with live failure policies and the eligible calls in scope.
 */
export const getMetricClusters = async (
  deps: Deps,
  ctx: RequestContext,
  query: ScopeInput,
): Promise<MetricClustersReport> => {
  const scope = normaliseScope(query, 'query');
  const names = await resolveScope(deps, ctx, scope);
  return reportFor(deps, ctx, scope, names, await repo.findReport(deps.db, ctx, scopeHash(scope)));
};

/**
 * Queues generation for a scope (POST, 202) as durable background work and wakes this instance's
 * worker. A scope whose report is already queued or running is not restarted: its current state
 * is returned (ask again once it ends to regenerate). `max_llm_calls` defaults to
 * {@link DEFAULT_MAX_LLM_CALLS}.
 */
export const generateMetricClusters = async (
  deps: Deps,
  ctx: RequestContext,
  body: MetricClustersGenerateBody,
): Promise<MetricClustersReport> => {
  const scope = normaliseScope(body, 'body');
  const names = await resolveScope(deps, ctx, scope);
  const row = await repo.requestReport(deps.db, ctx, {
    scope_hash: scopeHash(scope),
    scope,
    max_llm_calls: body.max_llm_calls ?? DEFAULT_MAX_LLM_CALLS,
    requested_by: actorLabel(ctx),
    now: deps.now(),
  });
  deps.workers.notify(GENERATE_TASK);
  return reportFor(deps, ctx, scope, names, row);
};

/** The workspace's failure policies: configured ones, and inferred ones for every other metric. */
export const getFailurePolicies = async (deps: Deps, ctx: RequestContext): Promise<FailurePolicies> =>
  toFailurePolicies(await loadPolicies(deps, ctx));
