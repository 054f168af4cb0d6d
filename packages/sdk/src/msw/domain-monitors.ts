import {
  type Monitor,
  type MonitorAlert,
  MonitorCreateBodySchema,
  type MonitorRule,
  MonitorUpdateBodySchema,
  type ProductionCallSubmitBody,
} from '@voice-eval/contract';
import type { z } from 'zod';
import { patchRow } from './crud.js';
import { idOf, type MockEnv, notFound, paginate, type RouteImpl, workspaceField } from './env.js';
import type { ParsedRequest } from './respond.js';

type RuleBody = z.output<typeof MonitorCreateBodySchema>['rules'][number];

/** Rules as stored: each with an id of its own (deterministic here, a random UUID on the server). */
const withIds = (env: MockEnv, rules: readonly RuleBody[]): MonitorRule[] =>
  rules.map((rule) => ({ ...rule, id: env.seq.uuid() }) as MonitorRule);

const sameSet = (a: readonly string[], b: readonly string[]) =>
  a.length === b.length && new Set([...a, ...b]).size === a.length;

const monitorOf = (req: ParsedRequest, env: MockEnv) => env.db.monitors.get(idOf(req), req.workspaceId);

/** A monitor's alerts, newest first. */
const alertsOf = (env: MockEnv, monitorId: string): MonitorAlert[] =>
  env.db.monitorAlerts
    .all()
    .filter((alert) => alert.monitor_id === monitorId)
    .sort((a, b) => b.fired_at.localeCompare(a.fired_at) || b.id.localeCompare(a.id));

/**
 * Whether a submitted call is judged by one of its agent's monitors, simplified: true when the
 * agent has an active monitor and `sampling` is not `skip`. The mock does not apply the monitors'
 * sample rates (the server judges call n iff floor(n·r) > floor((n−1)·r)), and leaves their
 * `calls_seen` and `calls_sampled` as stored.
 */
export const sampledByMonitors = (
  env: MockEnv,
  agentId: string,
  sampling: ProductionCallSubmitBody['sampling'],
): boolean => sampling !== 'skip' && env.db.monitors.all().some((m) => m.agent_id === agentId && m.is_active);

/**
 * Production monitors. Create checks the agent is in the workspace (404 otherwise; metrics are not
 * checked), gives each rule an id, fills the schema's defaults, answers `slack_configured` for a
 * Slack URL (never the URL) and a fresh `evaluation_id` (no evaluation row is stored). Update
 * replaces the fields sent: new rules get new ids, other `metric_ids` a new `evaluation_id`,
 * `slack_webhook_url: null` clears `slack_configured`. Delete takes the monitor's alerts with it.
 * The mock fires no alerts: seed `db.monitorAlerts` (`fixtures.monitorAlert({ monitor_id })`).
 */
export const monitorImpls: Record<string, RouteImpl> = {
  'monitors.create': (req, env) => {
    const { slack_webhook_url, rules, ...fields } = MonitorCreateBodySchema.parse(req.body);
    const agent = env.db.agents.get(fields.agent_id, req.workspaceId);
    if (!agent) return notFound('Agent');
    const monitor = env.fixtures.monitor({
      ...workspaceField(req),
      ...fields,
      rules: withIds(env, rules),
      slack_configured: slack_webhook_url !== undefined,
      evaluation_id: env.seq.uuid(),
      calls_seen: 0,
      calls_sampled: 0,
    });
    return { status: 201, body: env.db.monitors.create(monitor, { workspaceId: req.workspaceId }) };
  },
  'monitors.update': (req, env) => {
    const current = monitorOf(req, env);
    if (!current) return notFound('Monitor');
    const { slack_webhook_url, rules, metric_ids, ...fields } = MonitorUpdateBodySchema.parse(req.body ?? {});
    const patch: Partial<Monitor> = Object.fromEntries(
      Object.entries(fields).filter(([, value]) => value !== undefined),
    );
    if (rules !== undefined) patch.rules = withIds(env, rules);
    if (slack_webhook_url !== undefined) patch.slack_configured = slack_webhook_url !== null;
    if (metric_ids !== undefined && !sameSet(metric_ids, current.metric_ids)) {
      patch.metric_ids = metric_ids;
      patch.evaluation_id = env.seq.uuid();
    }
    return patchRow(env, 'monitors', req, patch);
  },
  'monitors.delete': (req, env) => {
    const monitor = monitorOf(req, env);
    if (!monitor) return notFound('Monitor');
    env.db.monitors.delete(monitor.id);
    for (const alert of alertsOf(env, monitor.id)) env.db.monitorAlerts.delete(alert.id);
    return { status: 204 };
  },
  'monitors.alerts': (req, env) => {
    const monitor = monitorOf(req, env);
    return monitor ? paginate(alertsOf(env, monitor.id), req.query) : notFound('Monitor');
  },
};
