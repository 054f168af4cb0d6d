import { z } from 'zod';
import { qBool, Timestamp, Uuid } from '../common.js';

/** How long a rule stays quiet after it fired (minutes); one alert per rule and window. */
const Cooldown = z.number().int().min(1).max(10_080).default(60);
/** A pass rate, 0 to 1. */
const Rate = z.number().min(0).max(1);
const WindowMinutes = z.number().int().min(1).max(43_200);
/** How sure the rule must be before it fires (the Wilson interval's level). */
const Confidence = z.union([z.literal(0.9), z.literal(0.95), z.literal(0.99)]).default(0.95);

/** Fires on every scored call that fails (any metric flagged). */
const PerCallRuleSchema = z.object({ type: z.literal('per_call'), cooldown_minutes: Cooldown });

/** Fires when at least `failures` of the last `of_last` scored calls failed. */
const FailureCountRuleSchema = z.object({
  type: z.literal('failure_count'),
  failures: z.number().int().min(1).max(1000),
  of_last: z.number().int().min(1).max(1000),
  cooldown_minutes: Cooldown,
});

/**
 * Fires when the pass rate of the calls scored in the last `window_minutes` is below `below`, and
 * the Wilson interval's upper bound at `confidence` is below it too (noise does not fire); never
 * with fewer than `min_calls` scored calls in the window.
 */
const PassRateRuleSchema = z.object({
  type: z.literal('pass_rate'),
  below: Rate,
  window_minutes: WindowMinutes,
  min_calls: z.number().int().min(1).max(10_000).default(10),
  confidence: Confidence,
  cooldown_minutes: Cooldown,
});

/**
 * Fires when the pass rate of the last `window_minutes` fell by at least `drop` from the window
 * before it, and the two windows' Wilson intervals at `confidence` do not overlap.
 */
const DriftRuleSchema = z.object({
  type: z.literal('drift'),
  drop: z.number().min(0).max(1).default(0.1),
  window_minutes: WindowMinutes,
  min_calls: z.number().int().min(1).max(10_000).default(10),
  confidence: Confidence,
  cooldown_minutes: Cooldown,
});

/**
 * Fires when a scored call fails in a way none of the calls of the previous `lookback_days` did:
 * a metric that had not failed, or a problem the judge discovered that had not been reported.
 */
const NewFailureRuleSchema = z.object({
  type: z.literal('new_failure'),
  lookback_days: z.number().int().min(1).max(90).default(7),
  cooldown_minutes: Cooldown,
});

const RULES = [
  PerCallRuleSchema,
  FailureCountRuleSchema,
  PassRateRuleSchema,
  DriftRuleSchema,
  NewFailureRuleSchema,
] as const;

/** An alert rule, by `type`. */
export const MonitorRuleBodySchema = z
  .discriminatedUnion('type', [...RULES])
  .refine((rule) => rule.type !== 'failure_count' || rule.failures <= rule.of_last, {
    message: 'failures must not exceed of_last',
    path: ['failures'],
  });
export type MonitorRuleBody = z.input<typeof MonitorRuleBodySchema>;

const ID = { id: z.string() };

/** A rule as stored: the body with its defaults, and the id its alerts and cooldown are kept under. */
export const MonitorRuleSchema = z.discriminatedUnion('type', [
  PerCallRuleSchema.extend(ID),
  FailureCountRuleSchema.extend(ID),
  PassRateRuleSchema.extend(ID),
  DriftRuleSchema.extend(ID),
  NewFailureRuleSchema.extend(ID),
]);
export type MonitorRule = z.infer<typeof MonitorRuleSchema>;

export const MONITOR_RULE_TYPES = ['per_call', 'failure_count', 'pass_rate', 'drift', 'new_failure'] as const;

/**
 * A production monitor: the agent's calls scored on arrival by its metrics (a share of them, exact:
 * call n is scored iff floor(n·r) > floor((n−1)·r)), and alert rules over the scores.
 */
export const MonitorSchema = z.object({
  id: Uuid,
  workspace_id: Uuid,
  agent_id: Uuid,
  name: z.string(),
  metric_ids: z.array(Uuid),
  sample_rate: Rate,
  rules: z.array(MonitorRuleSchema),
  is_active: z.boolean(),
  /** Whether alerts are also posted to a Slack incoming webhook (its URL is write-only). */
  slack_configured: z.boolean(),
  /** The evaluation that holds the monitor's scores (its rows are the calls, scored or not). */
  evaluation_id: Uuid.nullable(),
  /** Calls that reached the monitor (n of the sampling rule), and of those, the ones judged. */
  calls_seen: z.number().int().min(0),
  calls_sampled: z.number().int().min(0),
  created_at: Timestamp,
  updated_at: Timestamp,
});
export type Monitor = z.infer<typeof MonitorSchema>;

const NAME = z.string().trim().min(1).max(200);
const SLACK_URL = z
  .string()
  .url()
  .max(2048)
  .refine((url) => /^https?:\/\//i.test(url), 'Expected an http or https URL');

export const MonitorCreateBodySchema = z.object({
  agent_id: Uuid,
  name: NAME,
  metric_ids: z.array(Uuid).min(1).max(50),
  sample_rate: Rate.default(1),
  rules: z.array(MonitorRuleBodySchema).max(20).default([]),
  /** A Slack incoming-webhook URL alerts are posted to (checked by the server's address policy). */
  slack_webhook_url: SLACK_URL.optional(),
  is_active: z.boolean().default(true),
});
export type MonitorCreateBody = z.input<typeof MonitorCreateBodySchema>;

/**
 * Changes a monitor. New `metric_ids` start a new evaluation (the old one is closed); new `rules`
 * replace the old ones and start their cooldowns afresh; `slack_webhook_url: null` removes it.
 */
export const MonitorUpdateBodySchema = z
  .object({
    name: NAME,
    metric_ids: z.array(Uuid).min(1).max(50),
    sample_rate: Rate,
    rules: z.array(MonitorRuleBodySchema).max(20),
    slack_webhook_url: SLACK_URL.nullable(),
    is_active: z.boolean(),
  })
  .partial();
export type MonitorUpdateBody = z.input<typeof MonitorUpdateBodySchema>;

export const MonitorListQuerySchema = z.object({
  agent_id: Uuid.optional(),
  is_active: qBool.optional(),
});

/** What became of a call a monitor saw (`error`: the platform's failure, no transcript or no judge). */
export const MONITOR_CALL_OUTCOMES = ['passed', 'failed', 'not_sampled', 'error'] as const;

/** A call a monitor saw: its number, whether it was judged, and how it came out. */
export const MonitorCallSchema = z.object({
  production_call_id: Uuid,
  call_import_row_id: Uuid,
  /** n of the sampling rule: the call's place among the calls the monitor saw. */
  seq: z.number().int().min(1),
  sampled: z.boolean(),
  /** `waiting` for a transcript, `scoring` (its evaluation row is queued), `done`. */
  state: z.enum(['waiting', 'scoring', 'done']),
  /** Null until `done`. */
  outcome: z.enum(MONITOR_CALL_OUTCOMES).nullable(),
  /** What failed: `metric:<metric id>`, and `discovered:<key>` for problems the judge found outside the metrics. */
  failures: z.array(z.string()),
  /** The call's row in the monitor's evaluation (its results); null while it waits. */
  evaluation_row_id: Uuid.nullable(),
  arrived_at: Timestamp,
  scored_at: Timestamp.nullable(),
});
export type MonitorCall = z.infer<typeof MonitorCallSchema>;

export const MonitorCallListQuerySchema = z.object({
  outcome: z.enum(MONITOR_CALL_OUTCOMES).optional(),
  sampled: qBool.optional(),
});

/** An alert a monitor's rule raised: what it saw, and where it was sent. */
export const MonitorAlertSchema = z.object({
  id: Uuid,
  monitor_id: Uuid,
  rule_id: z.string(),
  rule_type: z.enum(MONITOR_RULE_TYPES),
  /** One sentence: what the rule saw. */
  summary: z.string(),
  /** The figures behind it (failures, calls, pass rate, bounds, windows...), per rule type. */
  observed: z.record(z.unknown()),
  /** The call that tipped it over. */
  production_call_id: Uuid.nullable(),
  call_import_row_id: Uuid.nullable(),
  /** `none` when the monitor has no Slack URL. */
  slack_status: z.enum(['none', 'pending', 'sent', 'failed']),
  fired_at: Timestamp,
});
export type MonitorAlert = z.infer<typeof MonitorAlertSchema>;
