import { randomInt } from 'node:crypto';
import type { EvaluatorSuite, SuiteRun, SuiteRunCreateBody } from '@voice-eval/contract';
import { actorLabel, type RequestContext } from '../../context.js';
import { isUniqueViolation } from '../../db/rows.js';
import type { Deps } from '../../deps.js';
import { enrolTenants } from '../../dispatch/repo.js';
import { ApiError } from '../../errors.js';
import { isVoiceConnection } from '../agents/channel.js';
import { requireAgent } from '../agents/service.js';
import { builtInSchemaId, SIMULATION_SCHEMA } from '../call-import-schemas/built-in-schemas.js';
import { createSimulationImport } from '../call-imports/simulation.js';
import { combinationEvaluators, takeRoundRobin } from '../evaluator-suites/run-support.js';
import { getSuite } from '../evaluator-suites/service.js';
import * as repo from './repo.js';
import { findRunOr404, hydrate } from './service.js';

/** Most calls one run may hold. */
export const MAX_CALLS_PER_RUN = 5000;

type Combination = EvaluatorSuite['combinations'][number];

const ruleViolation = (detail: string, path: string, message = detail) =>
  new ApiError('rule_violation', detail, { errors: [{ path, message }] });

/** The combinations a run calls, in queue order (before the round-robin cursor moves). */
const chooseCombinations = (suite: EvaluatorSuite, body: SuiteRunCreateBody) => {
  const all = suite.combinations;
  if (all.length === 0) throw ruleViolation('The suite has no combinations to run.', 'path.suite_id');
  if (body.combination_ids) {
    const byId = new Map(all.map((c) => [c.id, c]));
    const errors = body.combination_ids.flatMap((id, i) =>
      byId.has(id) ? [] : [{ path: `body.combination_ids.${i}`, message: 'Not a combination of this suite' }],
    );
    if (errors.length > 0) throw new ApiError('rule_violation', 'Unknown combinations.', { errors });
    return { picked: [...new Set(body.combination_ids)].map((id) => byId.get(id)!), roundRobin: 0 };
  }
  return { picked: all, roundRobin: body.calls ?? 0 };
};

/** The baseline named in the body: a run of the same suite in the workspace. */
const checkBaseline = async (deps: Deps, ctx: RequestContext, suiteId: string, id: string | undefined) => {
  if (!id) return null;
  const baseline = await findRunOr404(deps, ctx, id);
  if (baseline.suite_id !== suiteId) {
    throw ruleViolation('The baseline run belongs to another suite.', 'body.baseline_run_id');
  }
  return baseline.id;
};

/**
 * The suite must be able to run: active, with metrics, and an agent the platform can reach. Returns
 * the channel its calls use.
 */
const checkRunnable = async (deps: Deps, ctx: RequestContext, suite: EvaluatorSuite) => {
  if (!suite.is_active) throw ruleViolation('The suite is not active.', 'path.suite_id');
  if (suite.metric_ids.length === 0) {
    throw ruleViolation('The suite has no metrics to score its calls with.', 'path.suite_id');
  }
  const agent = await requireAgent(deps.db, ctx, suite.agent_id);
  if (!agent.connection) {
    throw ruleViolation(
      'The suite’s agent has no connection; set one on the agent first.',
      'path.suite_id',
      'The agent has no connection',
    );
  }
  return isVoiceConnection(agent) ? ('voice' as const) : ('text' as const);
};

type CallPlan = { combination: Combination; repetition: number };

const planCalls = (combinations: readonly Combination[], runsPerCombination: number): CallPlan[] => {
  const seen = new Map<string, number>();
  return combinations.flatMap((combination) =>
    Array.from({ length: runsPerCombination }, () => {
      const repetition = (seen.get(combination.id) ?? 0) + 1;
      seen.set(combination.id, repetition);
      return { combination, repetition };
    }),
  );
};

/**
 * Starts a run of a suite of the workspace: picks its combinations (all, a subset, or the next
 * `calls` round-robin, advancing the suite's cursor atomically), creates its `simulation` call
 * import with one row per call, the run and its calls, all in one transaction, and hands the
 * calls to the fair dispatcher. With `scheduleSlot`, returns null when that slot already has a run.
 */
export const startRun = async (
  deps: Deps,
  ctx: RequestContext,
  suiteId: string,
  body: SuiteRunCreateBody,
  options: { trigger?: 'api' | 'schedule'; scheduleSlot?: Date } = {},
): Promise<SuiteRun | null> => {
  const suite = await getSuite(deps, ctx, suiteId);
  const channel = await checkRunnable(deps, ctx, suite);
  const baselineRunId = await checkBaseline(deps, ctx, suite.id, body.baseline_run_id);
  const { picked, roundRobin } = chooseCombinations(suite, body);
  const runsPerCombination = body.runs_per_combination ?? suite.default_runs_per_combination;
  const total = (roundRobin || picked.length) * runsPerCombination;
  if (total > MAX_CALLS_PER_RUN) {
    throw ruleViolation(
      `A run holds at most ${MAX_CALLS_PER_RUN} calls; this one would hold ${total}.`,
      'body',
    );
  }
  const schemaId = await builtInSchemaId(deps, ctx, SIMULATION_SCHEMA);
  const evaluators = await combinationEvaluators(deps.db, suite.id);
  // outside the transaction, as evaluations do: a dispatch pass updates these cursors under its lock
  await enrolTenants(deps.db, ctx.organizationId, ctx.workspaceId);
  const now = deps.now();
  try {
    const row = await deps.db.transaction(async (trx) => {
      let combinations = picked;
      if (roundRobin > 0) {
        const start = await takeRoundRobin(trx, suite.id, roundRobin, picked.length);
        combinations = Array.from({ length: roundRobin }, (_, i) => picked[(start + i) % picked.length]!);
      }
      const plans = planCalls(combinations, runsPerCombination);
      const runId = crypto.randomUUID();
      const conversationId = (i: number) => `run-${runId.slice(0, 8)}-${String(i + 1).padStart(4, '0')}`;
      const { callImportId, rowIds } = await createSimulationImport(trx, ctx, {
        schemaId,
        dataset: suite.name,
        recorded: channel === 'voice',
        rows: plans.map((p, i) => ({
          conversation_id: conversationId(i),
          parameters: {
            suite_run_id: runId,
            persona: p.combination.persona_name,
            scenario: p.combination.scenario_name,
            repetition: String(p.repetition),
          },
        })),
      });
      const run = await repo.insertRun(trx, {
        id: runId,
        organization_id: ctx.organizationId,
        workspace_id: ctx.workspaceId,
        suite_id: suite.id,
        agent_id: suite.agent_id,
        trigger: options.trigger ?? 'api',
        channel,
        schedule_slot: options.scheduleSlot ?? null,
        runs_per_combination: runsPerCombination,
        combination_ids: JSON.stringify(combinations.map((c) => c.id)),
        metric_ids: JSON.stringify(suite.metric_ids),
        baseline_run_id: baselineRunId,
        call_import_id: callImportId,
        created_by: actorLabel(ctx),
      });
      await repo.insertCalls(
        trx,
        run,
        plans.map((p, position) => ({
          combination_id: p.combination.id,
          evaluator_id: evaluators.get(p.combination.id)!,
          persona_id: p.combination.persona_id,
          scenario_id: p.combination.scenario_id,
          repetition: p.repetition,
          position,
          conversation_id: conversationId(position),
          call_import_row_id: rowIds.get(conversationId(position))!,
          seed: randomInt(0, 2 ** 31 - 1),
        })),
        now,
      );
      return run;
    });
    deps.dispatcher.wake();
    return (await hydrate(deps, [row]))[0]!;
  } catch (error) {
    if (options.scheduleSlot && isUniqueViolation(error, 'suite_runs_schedule_slot')) return null;
    throw error;
  }
};
