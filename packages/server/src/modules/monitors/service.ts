import { randomUUID } from 'node:crypto';
import type {
  Monitor,
  MonitorAlert,
  MonitorCall,
  MonitorCreateBodySchema,
  MonitorRule,
  MonitorRuleBody,
  MonitorUpdateBodySchema,
  PageQuery,
} from '@voice-eval/contract';
import type { z } from 'zod';
import { actorLabel, type RequestContext } from '../../context.js';
import { paginate } from '../../db/paginate.js';
import { iso, isoOrNull } from '../../db/rows.js';
import type { Deps } from '../../deps.js';
import { ApiError, notFound } from '../../errors.js';
import { createAddressPolicy } from '../../net/address-policy.js';
import { checkUrlAtSave } from '../../net/url-check.js';
import { requireAgent } from '../agents/service.js';
import { openContinuousEvaluation, releaseContinuousEvaluation } from '../evaluations/continuous.js';
import { prepareMonitorEvaluation } from './evaluation.js';
import * as repo from './repo.js';

type CreateBody = z.output<typeof MonitorCreateBodySchema>;
type UpdateBody = z.output<typeof MonitorUpdateBodySchema>;

/** Additional authenticated data of a monitor's sealed Slack URL (binds it to the monitor). */
export const slackContext = (monitorId: string) => `monitors.slack_webhook_url:${monitorId}`;

export const toMonitor = (row: repo.MonitorRow): Monitor => ({
  id: row.id,
  workspace_id: row.workspace_id,
  agent_id: row.agent_id,
  name: row.name,
  metric_ids: row.metric_ids,
  sample_rate: row.sample_rate,
  rules: row.rules,
  is_active: row.is_active,
  slack_configured: row.slack_webhook_url_sealed !== null,
  evaluation_id: row.evaluation_id,
  calls_seen: row.calls_seen,
  calls_sampled: row.calls_sampled,
  created_at: iso(row.created_at),
  updated_at: iso(row.updated_at),
});

export const toAlert = (row: repo.AlertRow): MonitorAlert => ({
  id: row.id,
  monitor_id: row.monitor_id,
  rule_id: row.rule_id,
  rule_type: row.rule_type,
  summary: row.summary,
  observed: row.observed,
  production_call_id: row.production_call_id,
  call_import_row_id: row.call_import_row_id,
  slack_status: row.slack_status,
  fired_at: iso(row.fired_at),
});

/** Rules as stored: each with an id of its own, under which its alerts and cooldown are kept. */
const withIds = (rules: readonly MonitorRuleBody[]): MonitorRule[] =>
  rules.map((rule) => ({ ...rule, id: randomUUID() }) as MonitorRule);

/** A Slack URL the server's fetch would refuse (a private address not allow-listed) is a 422 at once. */
const sealedSlackUrl = async (deps: Deps, monitorId: string, url: string) => {
  const checked = await checkUrlAtSave(url, createAddressPolicy(deps.config.fetchAllowlist));
  if (!checked.ok) {
    throw new ApiError('rule_violation', checked.message, {
      errors: [{ path: 'body.slack_webhook_url', message: checked.message }],
    });
  }
  return deps.secrets.seal(url, slackContext(monitorId));
};

const load = async (deps: Deps, ctx: RequestContext, id: string) => {
  const row = await repo.findMonitor(deps.db, ctx, id);
  if (!row) throw notFound('Monitor');
  return row;
};

export const listMonitors = (
  deps: Deps,
  ctx: RequestContext,
  query: PageQuery & { agent_id?: string; is_active?: boolean },
) => paginate(repo.monitorsQuery(deps.db, ctx, query), query, toMonitor);

export const getMonitor = async (deps: Deps, ctx: RequestContext, id: string): Promise<Monitor> =>
  toMonitor(await load(deps, ctx, id));

/**
 * Starts monitoring an agent of the workspace: the monitor and the evaluation that will hold its
 * scores, in one transaction. Calls that arrive from now on are numbered and sampled.
 */
export const createMonitor = async (deps: Deps, ctx: RequestContext, body: CreateBody): Promise<Monitor> => {
  const agent = await requireAgent(deps.db, ctx, body.agent_id);
  const id = randomUUID();
  const slack = body.slack_webhook_url ? await sealedSlackUrl(deps, id, body.slack_webhook_url) : null;
  const evaluation = await prepareMonitorEvaluation(deps, ctx, agent, body.metric_ids);
  const now = deps.now();
  const created = await deps.db.transaction(async (trx) => {
    await repo.insertMonitor(trx, {
      id,
      organization_id: ctx.organizationId,
      workspace_id: ctx.workspaceId,
      agent_id: agent.id,
      name: body.name,
      metric_ids: evaluation.metric_ids,
      sample_rate: body.sample_rate,
      rules: withIds(body.rules),
      slack_webhook_url_sealed: slack,
      is_active: body.is_active,
      created_by: actorLabel(ctx),
      created_at: now,
      updated_at: now,
    });
    const evaluationId = await openContinuousEvaluation(trx, evaluation, id, now);
    return repo.updateMonitor(trx, id, { evaluation_id: evaluationId });
  });
  return toMonitor(created);
};

const sameSet = (a: readonly string[], b: readonly string[]) =>
  a.length === b.length && new Set([...a, ...b]).size === a.length;

/**
 * Changes a monitor. Other metrics start a new evaluation (the old one keeps its scores and closes
 * once its queued rows are done); new rules replace the old ones, cooldowns and all.
 */
export const updateMonitor = async (
  deps: Deps,
  ctx: RequestContext,
  id: string,
  body: UpdateBody,
): Promise<Monitor> => {
  const current = await load(deps, ctx, id);
  const patch: Partial<repo.MonitorRow> = { updated_at: deps.now() };
  if (body.name !== undefined) patch.name = body.name;
  if (body.sample_rate !== undefined) patch.sample_rate = body.sample_rate;
  if (body.is_active !== undefined) patch.is_active = body.is_active;
  if (body.rules !== undefined) patch.rules = withIds(body.rules);
  if (body.slack_webhook_url !== undefined) {
    patch.slack_webhook_url_sealed =
      body.slack_webhook_url === null ? null : await sealedSlackUrl(deps, id, body.slack_webhook_url);
  }
  const newMetrics =
    body.metric_ids && !sameSet(body.metric_ids, current.metric_ids) ? body.metric_ids : null;
  const evaluation = newMetrics
    ? await prepareMonitorEvaluation(
        deps,
        ctx,
        await requireAgent(deps.db, ctx, current.agent_id),
        newMetrics,
      )
    : null;
  const updated = await deps.db.transaction(async (trx) => {
    if (evaluation) {
      await releaseContinuousEvaluation(trx, current.evaluation_id);
      patch.metric_ids = evaluation.metric_ids;
      patch.evaluation_id = await openContinuousEvaluation(trx, evaluation, id, deps.now());
    }
    return repo.updateMonitor(trx, id, patch);
  });
  return toMonitor(updated);
};

/** Deletes a monitor and its alert history; its evaluation keeps the scores and closes. */
export const deleteMonitor = async (deps: Deps, ctx: RequestContext, id: string): Promise<void> => {
  const current = await load(deps, ctx, id);
  await deps.db.transaction(async (trx) => {
    await releaseContinuousEvaluation(trx, current.evaluation_id);
    await trx('monitors').where({ id }).delete();
  });
};

export const toMonitorCall = (row: repo.MonitorCallRow): MonitorCall => ({
  production_call_id: row.production_call_id,
  call_import_row_id: row.call_import_row_id,
  seq: row.seq,
  sampled: row.sampled,
  state: row.state,
  outcome: row.outcome,
  failures: row.failures,
  evaluation_row_id: row.evaluation_row_id,
  arrived_at: iso(row.arrived_at),
  scored_at: isoOrNull(row.scored_at),
});

/** The calls a monitor saw, newest (highest number) first. */
export const listMonitorCalls = async (
  deps: Deps,
  ctx: RequestContext,
  id: string,
  query: PageQuery & { outcome?: string; sampled?: boolean },
) => {
  await load(deps, ctx, id);
  return paginate(repo.callsQuery(deps.db, id, query), query, toMonitorCall, {
    createdAt: 'seq',
    id: 'production_call_id',
  });
};

/** A monitor's alerts, newest first. */
export const listAlerts = async (deps: Deps, ctx: RequestContext, id: string, query: PageQuery) => {
  await load(deps, ctx, id);
  return paginate(repo.alertsQuery(deps.db, id), query, toAlert, { createdAt: 'fired_at' });
};
