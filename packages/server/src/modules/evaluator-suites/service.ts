import type {
  EvaluatorSuite,
  EvaluatorSuiteCreateBody,
  EvaluatorSuiteUpdateBody,
  PageQuery,
} from '@voice-eval/contract';
import type { Knex } from 'knex';
import { actorLabel, type RequestContext } from '../../context.js';
import { paginate } from '../../db/paginate.js';
import { isUniqueViolation } from '../../db/rows.js';
import type { Deps } from '../../deps.js';
import { ApiError, notFound } from '../../errors.js';
import { requireAgent } from '../agents/service.js';
import {
  assertActiveMetrics,
  deleteEvaluatorRows,
  type EvaluatorSettings,
  updateEvaluatorSettings,
  withCodeRetry,
} from '../evaluators/service.js';
import { rebuildCombinations, type SuiteMembers } from './combinations.js';
import { toSuites } from './read-model.js';
import * as repo from './repo.js';
import { nextSlotAfter, scheduleColumns } from './schedule.js';

const scopeOf = (ctx: RequestContext) => ({
  organizationId: ctx.organizationId,
  workspaceId: ctx.workspaceId,
});

const nameConflict = (error: unknown): unknown =>
  isUniqueViolation(error, 'evaluator_suites_name_unique')
    ? new ApiError('conflict', 'A suite with this name already exists in the workspace.')
    : error;

const json = (value: unknown) => (value === undefined ? undefined : JSON.stringify(value));

/** A suite before its first write: no schedule. */
const UNSCHEDULED = { schedule: null, schedule_enabled: false, next_run_at: null };

/** Suite columns of a body (jsonb as JSON text; id lists de-duplicated in order). */
const columnsOf = (body: EvaluatorSuiteUpdateBody): repo.SuiteWrite => {
  const { persona_ids, scenario_ids, metric_ids, llm_config, tags, ...rest } = body;
  const unique = (ids: string[] | undefined) => (ids ? [...new Set(ids)] : undefined);
  const out: repo.SuiteWrite = { ...rest };
  for (const [key, value] of Object.entries({
    persona_ids: unique(persona_ids),
    scenario_ids: unique(scenario_ids),
    metric_ids: unique(metric_ids),
    llm_config,
    tags: unique(tags),
  })) {
    if (value !== undefined) out[key as 'tags'] = json(value);
  }
  return out;
};

/** The judge settings a suite hands down to the evaluators behind its combinations. */
const settingsOf = (body: EvaluatorSuiteUpdateBody): EvaluatorSettings | null => {
  const { metric_ids, llm_provider, llm_model, llm_config, tags } = body;
  const settings = { metric_ids, llm_provider, llm_model, llm_config, tags };
  return Object.values(settings).some((v) => v !== undefined) ? settings : null;
};

const toSuite = async (db: Knex, ctx: RequestContext, row: repo.SuiteRow) =>
  (await toSuites(db, scopeOf(ctx), [row]))[0]!;

/** The workspace's suites, newest first, each with its personas, combinations and counts. */
export const listSuites = async (
  deps: Deps,
  ctx: RequestContext,
  query: PageQuery & { agent_id?: string; is_active?: boolean; tag?: string; q?: string },
) => {
  const page = await paginate(
    repo.suitesQuery(deps.db, scopeOf(ctx), query),
    query,
    (row: repo.SuiteRow) => row,
  );
  return { ...page, items: await toSuites(deps.db, scopeOf(ctx), page.items) };
};

/** A suite with its personas and combinations (names inlined) and its agent's details. */
export const getSuite = async (deps: Deps, ctx: RequestContext, id: string): Promise<EvaluatorSuite> => {
  const row = await repo.findSuite(deps.db, scopeOf(ctx), id);
  if (!row) throw notFound('Evaluator suite');
  return toSuite(deps.db, ctx, row);
};

/**
 * Creates a suite and one evaluator per persona x scenario (its combinations), all in one
 * transaction. Every id must be the workspace's (404 otherwise); metrics must be active (422); a
 * schedule must be a 5-field cron expression (422), and an enabled one sets `next_run_at`.
 */
export const createSuite = async (deps: Deps, ctx: RequestContext, body: EvaluatorSuiteCreateBody) => {
  const schedule = scheduleColumns(body, UNSCHEDULED, deps.now());
  try {
    return await withCodeRetry(deps, async (trx) => {
      const agent = await requireAgent(trx, ctx, body.agent_id);
      await assertActiveMetrics(trx, ctx, body.metric_ids);
      const { agent_id: _a, ...fields } = body;
      const suite = await repo.insertSuite(trx, {
        ...columnsOf(fields),
        ...schedule,
        agent_id: agent.id,
        organization_id: ctx.organizationId,
        workspace_id: ctx.workspaceId,
        created_by: actorLabel(ctx),
      });
      await rebuildCombinations(trx, ctx, suite, agent);
      return toSuite(trx, ctx, suite);
    });
  } catch (error) {
    throw nameConflict(error);
  }
};

/**
 * Updates a suite. New `persona_ids`/`scenario_ids` rebuild the combinations (remaining pairs
 * keep their evaluator; dropped pairs lose theirs); judge settings are handed down to every
 * evaluator of the suite. `round_robin_index` restarts at 0 when it falls past the combinations.
 * A changed `schedule` or `schedule_enabled` recomputes `next_run_at` from now (see `scheduleColumns`).
 */
export const updateSuite = async (
  deps: Deps,
  ctx: RequestContext,
  id: string,
  body: EvaluatorSuiteUpdateBody,
) => {
  try {
    return await withCodeRetry(deps, async (trx) => {
      const current = await repo.findSuiteForUpdate(trx, scopeOf(ctx), id);
      if (!current) throw notFound('Evaluator suite');
      await assertActiveMetrics(trx, ctx, body.metric_ids);
      let suite = await repo.updateSuite(trx, scopeOf(ctx), id, {
        ...columnsOf(body),
        ...scheduleColumns(body, current, deps.now()),
      });
      const agent = await requireAgent(trx, ctx, suite.agent_id);
      const members: SuiteMembers = await rebuildCombinations(trx, ctx, suite, agent);
      const settings = settingsOf(body);
      if (settings) await updateEvaluatorSettings(trx, ctx, members.evaluatorIds, settings);
      if (suite.round_robin_index >= members.count) {
        suite = await repo.updateSuite(trx, scopeOf(ctx), id, { round_robin_index: 0 });
      }
      return toSuite(trx, ctx, suite);
    });
  } catch (error) {
    throw nameConflict(error);
  }
};

/** Deletes a suite, its combinations and the evaluators behind them, in one transaction. */
export const deleteSuite = async (deps: Deps, ctx: RequestContext, id: string): Promise<void> => {
  await deps.db.transaction(async (trx) => {
    if (!(await repo.findSuiteForUpdate(trx, scopeOf(ctx), id))) throw notFound('Evaluator suite');
    const evaluatorIds = (await repo.combinationsOf(trx, id)).map((c) => c.evaluator_id);
    await repo.deleteSuite(trx, scopeOf(ctx), id);
    await deleteEvaluatorRows(trx, ctx, evaluatorIds);
  });
};

/**
 * Suites of every tenant whose enabled schedule is due now, earliest first, at most `limit`,
 * without the `excluded` ids. For the scheduler only: it acts outside any request.
 */
export const dueScheduledSuites = (deps: Deps, limit: number, excluded: readonly string[]) =>
  repo.dueSuites(deps.db, deps.now(), limit, excluded);

/** A due suite as `dueScheduledSuites` answers it. */
export type DueSuite = repo.DueSuite;

/**
 * Moves a due suite's `next_run_at` past the slot it was started for: to the schedule's first slot
 * after both that slot and now (slots missed meanwhile are not replayed), with a compare-and-set on
 * the value the scheduler read. False when another instance (or an edit of the schedule) moved it first.
 */
export const advanceSchedule = async (deps: Deps, suite: DueSuite, slot: Date): Promise<boolean> => {
  const now = deps.now();
  const after = slot.getTime() > now.getTime() ? slot : now;
  return repo.advanceNextRun(deps.db, suite.id, suite.next_run_at, nextSlotAfter(suite.schedule, after));
};
