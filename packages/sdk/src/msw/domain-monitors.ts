import {
  type Monitor,
  type MonitorAlert,
  MonitorCreateBodySchema,
  type MonitorRule,
  MonitorUpdateBodySchema,
  type ProductionCall,
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

/** floor(n·r) for a rate held to six decimals, in integers, as the server computes it. */
const judgedAmong = (n: number, rate: number) => Math.floor((n * Math.round(rate * 1_000_000)) / 1_000_000);

/**
 * Numbers a submitted call for each active monitor of its agent and decides, as the server does,
 * whether the monitor judges it: call n iff floor(n·r) > floor((n−1)·r), always with `force` or an
 * `end_reason` that says error, never with `skip`. The mock scores nothing: the call stays
 * `waiting` with no outcome. Returns whether any monitor judges it.
 */
export const enrolInMonitors = (
  env: MockEnv,
  call: ProductionCall,
  sampling: ProductionCallSubmitBody['sampling'] = 'default',
): boolean => {
  let judged = false;
  for (const monitor of env.db.monitors.all()) {
    if (monitor.agent_id !== call.agent_id || !monitor.is_active) continue;
    const n = monitor.calls_seen + 1;
    const sampled =
      sampling === 'force' ||
      (sampling === 'default' &&
        (/error/i.test(call.end_reason ?? '') ||
          judgedAmong(n, monitor.sample_rate) > judgedAmong(n - 1, monitor.sample_rate)));
    env.db.monitors.update(monitor.id, {
      calls_seen: n,
      calls_sampled: monitor.calls_sampled + (sampled ? 1 : 0),
    });
    env.monitorCalls.push({
      monitor_id: monitor.id,
      production_call_id: call.id,
      call_import_row_id: call.call_import_row_id,
      seq: n,
      sampled,
      state: 'waiting',
      outcome: null,
      failures: [],
      evaluation_row_id: null,
      arrived_at: call.received_at,
      scored_at: null,
    });
    judged ||= sampled;
  }
  return judged;
};

/**
 * Production monitors. Create checks the agent is in the workspace (404 otherwise; metrics are not
 * checked), gives each rule an id, fills the schema's defaults, answers `slack_configured` for a
 * Slack URL (never the URL) and a fresh `evaluation_id` (no evaluation row is stored). Update
 * replaces the fields sent: new rules get new ids, other `metric_ids` a new `evaluation_id`,
 * `slack_webhook_url: null` clears `slack_configured`. Delete takes the monitor's alerts and calls
 * with it. Calls are numbered and sampled on submit (`enrolInMonitors`) and never scored.
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
    env.monitorCalls = env.monitorCalls.filter((c) => c.monitor_id !== monitor.id);
    return { status: 204 };
  },
  'monitors.calls': (req, env) => {
    const monitor = monitorOf(req, env);
    if (!monitor) return notFound('Monitor');
    const { outcome, sampled } = req.query as { outcome?: string; sampled?: boolean | string };
    const calls = env.monitorCalls
      .filter((c) => c.monitor_id === monitor.id)
      .filter((c) => outcome === undefined || c.outcome === outcome)
      .filter((c) => sampled === undefined || String(c.sampled) === String(sampled))
      .sort((a, b) => b.seq - a.seq)
      .map(({ monitor_id: _, ...call }) => call);
    return paginate(calls, req.query);
  },
  'monitors.alerts': (req, env) => {
    const monitor = monitorOf(req, env);
    return monitor ? paginate(alertsOf(env, monitor.id), req.query) : notFound('Monitor');
  },
};
