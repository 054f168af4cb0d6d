import { createHash } from 'node:crypto';
import type { MetricClustersQuerySchema } from '@voice-eval/contract';
import type { z } from 'zod';
import type { RequestContext } from '../../context.js';
import type { Deps } from '../../deps.js';
import { ApiError, type FieldError } from '../../errors.js';
import { getAgent } from '../agents/service.js';
import { getEvaluation } from '../evaluations/service.js';
import { getSuite } from '../evaluator-suites/service.js';
import { requireScenarios } from '../scenarios/service.js';

/** The filters of a report, normalised: unset ones null, scenario ids sorted without repeats. */
export type ReportScope = {
  agent_id: string | null;
  scenario_ids: string[];
  suite_id: string | null;
  job_id: string | null;
  since: string | null;
  until: string | null;
  scope_key: string | null;
};

/** The scope filters as GET and POST take them. */
export type ScopeInput = z.infer<typeof MetricClustersQuerySchema>;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

const blankToNull = (value: string | undefined): string | null => (value?.trim() ? value.trim() : null);

/**
 * Normalises and checks the filters: ids must be UUIDs and `since`/`until` ISO 8601 date-times
 * with `since` <= `until` (422 `validation_failed` otherwise). Empty strings count as unset, and
 * `scenario_id` joins `scenario_ids`.
 */
export const normaliseScope = (input: ScopeInput, where: 'query' | 'body'): ReportScope => {
  const errors: FieldError[] = [];
  const id = (field: 'agent_id' | 'suite_id' | 'job_id') => {
    const value = blankToNull(input[field]);
    if (value && !UUID.test(value)) errors.push({ path: `${where}.${field}`, message: 'Expected a UUID' });
    return value?.toLowerCase() ?? null;
  };
  const time = (field: 'since' | 'until') => {
    const value = blankToNull(input[field]);
    if (value === null) return null;
    const at = new Date(value);
    if (!/^\d{4}-\d{2}-\d{2}/.test(value) || Number.isNaN(at.getTime())) {
      errors.push({ path: `${where}.${field}`, message: 'Expected an ISO 8601 date-time' });
      return null;
    }
    return at.toISOString();
  };
  const scenarios = [...(input.scenario_ids ?? []), ...(input.scenario_id ? [input.scenario_id] : [])]
    .map((s) => s.trim())
    .filter(Boolean);
  scenarios.forEach((s, i) => {
    if (!UUID.test(s)) errors.push({ path: `${where}.scenario_ids.${i}`, message: 'Expected a UUID' });
  });
  const scope: ReportScope = {
    agent_id: id('agent_id'),
    scenario_ids: [...new Set(scenarios.map((s) => s.toLowerCase()))].sort(),
    suite_id: id('suite_id'),
    job_id: id('job_id'),
    since: time('since'),
    until: time('until'),
    scope_key: blankToNull(input.scope_key),
  };
  if (scope.since && scope.until && scope.since > scope.until) {
    errors.push({ path: `${where}.until`, message: 'until must not be before since' });
  }
  if (errors.length > 0) throw new ApiError('validation_failed', 'The report scope is invalid.', { errors });
  return scope;
};

/** The cache key of a scope: equal filters (in any order or spelling) share one stored report. */
export const scopeHash = (scope: ReportScope): string =>
  createHash('sha256')
    .update(
      JSON.stringify([
        scope.agent_id,
        scope.scenario_ids,
        scope.suite_id,
        scope.job_id,
        scope.since,
        scope.until,
        scope.scope_key,
      ]),
    )
    .digest('hex');

/**
 * The agent and scenarios a report covers, for `generation_scope`: the ones named by the scope,
 * else those of its suite (a suite has one agent; its scenarios are those of its combinations).
 */
export type ScopeNames = {
  agentId: string | null;
  agentName: string | null;
  scenarioIds: string[];
  scenarioNames: string[];
};

/**
 * Checks that every id of the scope names something of the workspace (404 otherwise, as for any
 * foreign id) and returns the agent and scenarios it covers, with their names.
 */
export const resolveScope = async (
  deps: Deps,
  ctx: RequestContext,
  scope: ReportScope,
): Promise<ScopeNames> => {
  const [agent, scenarios, suite] = await Promise.all([
    scope.agent_id ? getAgent(deps, ctx, scope.agent_id) : null,
    scope.scenario_ids.length ? requireScenarios(deps.db, ctx, scope.scenario_ids) : [],
    scope.suite_id ? getSuite(deps, ctx, scope.suite_id) : null,
    scope.job_id ? getEvaluation(deps, ctx, scope.job_id) : null,
  ]);
  const suiteScenarios = new Map((suite?.combinations ?? []).map((c) => [c.scenario_id, c.scenario_name]));
  const named = scenarios.length > 0 || !suite;
  return {
    agentId: agent?.id ?? suite?.agent_id ?? null,
    agentName: agent?.name ?? suite?.agent_name ?? null,
    scenarioIds: named ? scope.scenario_ids : [...suiteScenarios.keys()],
    scenarioNames: named ? scenarios.map((scenario) => scenario.name) : [...suiteScenarios.values()],
  };
};
