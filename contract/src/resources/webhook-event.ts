import { z } from 'zod';
import { Timestamp, Uuid } from '../common.js';
import { MONITOR_RULE_TYPES } from './monitor.js';

/** `call_import.transcription.completed`: every row queued for transcription of an import reached a terminal state. */
export const CallImportTranscriptionCompletedDataSchema = z.object({
  call_import_id: Uuid,
  workspace_id: Uuid,
  /** Rows the settled transcribe requests queued, by outcome; `failed_rows` includes cancelled ones. */
  queued_rows: z.number().int().min(0),
  completed_rows: z.number().int().min(0),
  failed_rows: z.number().int().min(0),
});

/** `evaluation.completed` and `evaluation.failed`: an evaluation settled (no row left to score). */
export const EvaluationSettledDataSchema = z.object({
  evaluation_id: Uuid,
  workspace_id: Uuid,
  call_import_id: Uuid,
  status: z.enum(['completed', 'failed']),
  total_rows: z.number().int().min(0),
  completed_rows: z.number().int().min(0),
  failed_rows: z.number().int().min(0),
  flagged_rows: z.number().int().min(0),
  error_message: z.string().nullable(),
});

/** `metric_clusters.completed`: a metric-cluster report finished generating. */
export const MetricClustersCompletedDataSchema = z.object({
  report_id: Uuid,
  workspace_id: Uuid,
  /** Completed evaluation rows in scope when the report was generated. */
  completed_rows: z.number().int().min(0),
  llm_calls_used: z.number().int().min(0),
});

/** `suite_run.completed` and `suite_run.failed`: a suite run finished (scored, or could not be). */
export const SuiteRunSettledDataSchema = z.object({
  suite_run_id: Uuid,
  suite_id: Uuid,
  workspace_id: Uuid,
  evaluation_id: Uuid.nullable(),
  status: z.enum(['completed', 'failed']),
  pass_rate: z.number().min(0).max(1).nullable(),
  error_message: z.string().nullable(),
  /**
   * The run's page in the console (`<public URL>/console/runs/<id>`); null when the server has no
   * public URL configured or does not serve the console. Absent from events of older servers
   * (`verifyWebhook` returns the body as sent).
   */
  console_url: z.string().nullable().optional(),
});

/**
 * `monitor.alert.fired`: a monitor's rule fired (once per rule and cooldown). Never sent for the
 * platform's own failures: calls whose transcription or judge failed do not count.
 */
export const MonitorAlertFiredDataSchema = z.object({
  alert_id: Uuid,
  monitor_id: Uuid,
  workspace_id: Uuid,
  agent_id: Uuid,
  rule_id: z.string(),
  rule_type: z.enum(MONITOR_RULE_TYPES),
  summary: z.string(),
  observed: z.record(z.unknown()),
  production_call_id: Uuid.nullable(),
  evaluation_id: Uuid.nullable(),
  fired_at: Timestamp,
});

/** `review_queue.completed`: every call of a review queue was labelled and marked done. */
export const ReviewQueueCompletedDataSchema = z.object({
  queue_id: Uuid,
  workspace_id: Uuid,
  name: z.string(),
  items: z.number().int(),
  metric_ids: z.array(Uuid),
  completed_at: Timestamp,
});

/** `ping`: a test event sent by `webhookEndpoints.ping` to one endpoint. */
export const PingDataSchema = z.object({ endpoint_id: Uuid });

/**
 * The event registry: each event type and the schema of its `data`. Adding an event is one line
 * here plus the place that emits it (in the transaction of the state change that causes it).
 */
export const WEBHOOK_EVENT_DATA = {
  'call_import.transcription.completed': CallImportTranscriptionCompletedDataSchema,
  'evaluation.completed': EvaluationSettledDataSchema,
  'evaluation.failed': EvaluationSettledDataSchema,
  'metric_clusters.completed': MetricClustersCompletedDataSchema,
  'monitor.alert.fired': MonitorAlertFiredDataSchema,
  'review_queue.completed': ReviewQueueCompletedDataSchema,
  'suite_run.completed': SuiteRunSettledDataSchema,
  'suite_run.failed': SuiteRunSettledDataSchema,
  ping: PingDataSchema,
} as const;

export type WebhookEventType = keyof typeof WEBHOOK_EVENT_DATA;

/** Every event type, `ping` included. */
export const WEBHOOK_EVENT_TYPES = Object.keys(WEBHOOK_EVENT_DATA) as [
  WebhookEventType,
  ...WebhookEventType[],
];

/** The event types an endpoint subscribes to (`ping` is sent on request, not subscribed to). */
export const SUBSCRIBABLE_EVENT_TYPES = WEBHOOK_EVENT_TYPES.filter((t) => t !== 'ping') as [
  Exclude<WebhookEventType, 'ping'>,
  ...Exclude<WebhookEventType, 'ping'>[],
];
export const WebhookEventTypeSchema = z.enum(SUBSCRIBABLE_EVENT_TYPES);

/** The data of an event of type `T`. */
export type WebhookEventData<T extends WebhookEventType> = z.infer<(typeof WEBHOOK_EVENT_DATA)[T]>;

/**
 * The body POSTed to an endpoint (Standard Webhooks): `type`, `timestamp` (when the event
 * happened) and `data` (ids and counts; never secrets or transcripts), discriminated by `type`.
 */
export type WebhookEvent = {
  [T in WebhookEventType]: { type: T; timestamp: string; data: WebhookEventData<T> };
}[WebhookEventType];

const eventSchemaOf = <T extends WebhookEventType>(type: T) =>
  z.object({ type: z.literal(type), timestamp: Timestamp, data: WEBHOOK_EVENT_DATA[type] });

/** Parses a webhook body into a {@link WebhookEvent}; unknown types fail. */
export const WebhookEventSchema = z.discriminatedUnion(
  'type',
  WEBHOOK_EVENT_TYPES.map(eventSchemaOf) as unknown as [
    ReturnType<typeof eventSchemaOf>,
    ReturnType<typeof eventSchemaOf>,
    ...ReturnType<typeof eventSchemaOf>[],
  ],
) as unknown as z.ZodType<WebhookEvent, z.ZodTypeDef, unknown>;
