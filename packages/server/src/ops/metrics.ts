import { KNOWN_AI_PROVIDERS } from '@voice-eval/contract';
import type { Knex } from 'knex';
import type { Logger } from 'pino';
import { Counter, collectDefaultMetrics, Gauge, Histogram, Registry } from 'prom-client';
import type { FairDispatcher } from '../dispatch/fair-dispatcher.js';
import type { DispatchLimits } from '../dispatch/plan.js';
import type { ModelCallEvent, ModelCallObserver, UsageEvent } from '../providers/index.js';

/**
 * How a webhook delivery attempt ended: `delivered` (2xx), `failed` (an error status, a timeout or
 * a refused connection; it will be retried), `exhausted` (the last attempt failed: no more
 * retries), `disabled` (not sent: the endpoint was disabled).
 */
export const WEBHOOK_DELIVERY_OUTCOMES = ['delivered', 'failed', 'exhausted', 'disabled'] as const;
export type WebhookDeliveryOutcome = (typeof WEBHOOK_DELIVERY_OUTCOMES)[number];

/** Background work items counted by `voice_eval_work_items`: the task name, the table and its state column. */
const WORK_ITEMS = [
  { kind: 'call_import_row.diarise', table: 'call_import_rows', column: 'diarised_transcript_status' },
  { kind: 'evaluation_row.score', table: 'evaluation_rows', column: 'status' },
  { kind: 'metric_cluster_report.generate', table: 'metric_cluster_reports', column: 'status' },
  { kind: 'suite_run_call.converse', table: 'suite_run_calls', column: 'status' },
] as const;
/** States counted: the live ones, which partial indexes cover; finished rows only ever grow. */
const WORK_ITEM_STATES = ['pending', 'running'] as const;

const WORK_ITEMS_SQL = WORK_ITEMS.map(
  ({ kind, table, column }) =>
    `select '${kind}' as kind, ${column} as state, count(*)::int as n from ${table} ` +
    `where ${column} in ('pending', 'running') group by ${column}`,
).join(' union all ');

const DISPATCH_SCOPES = ['global', 'organization', 'workspace', 'job'] as const;

/** Buckets of request durations, in seconds: from a cached read to a slow upload. */
const HTTP_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];
/** Buckets of model calls, in seconds: they take from a few hundred ms to minutes. */
const MODEL_BUCKETS = [0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120];

/** A bounded provider label: a known provider, `default` (the server default), else `other`. */
const PROVIDER_LABELS = new Set<string>([...KNOWN_AI_PROVIDERS, 'default']);
export const providerLabel = (provider: string): string => {
  const name = provider.trim().toLowerCase();
  return PROVIDER_LABELS.has(name) ? name : 'other';
};

/** What the scrape-time collectors read: the database, the dispatcher and its limits. */
export type MetricsSources = {
  db: Knex;
  dispatcher: FairDispatcher;
  limits: DispatchLimits;
  now: () => Date;
  logger: Logger;
};

/**
 * The Prometheus metrics of one server instance, in a registry of its own (several apps may run
 * in one process). Every label has a bounded set of values: route templates, never paths, and no
 * tenant ids.
 */
export class ServerMetrics {
  readonly registry = new Registry();
  readonly #httpDuration: Histogram<'method' | 'route' | 'status'>;
  /** Observers of the HTTP histogram per label set, so a request costs one map lookup. */
  readonly #httpChildren = new Map<string, { observe(value: number): void }>();
  readonly #modelCalls: Counter<'provider' | 'kind' | 'outcome'>;
  readonly #modelErrors: Counter<'provider' | 'kind' | 'code'>;
  readonly #modelDuration: Histogram<'provider' | 'kind'>;
  readonly #modelTokens: Counter<'provider' | 'kind' | 'type'>;
  readonly #modelAudio: Counter<'provider' | 'kind'>;
  readonly #webhookDeliveries: Counter<'outcome'>;

  constructor(options: { defaultMetrics?: boolean } = {}) {
    const registers = [this.registry];
    if (options.defaultMetrics) collectDefaultMetrics({ register: this.registry });
    this.#httpDuration = new Histogram({
      name: 'voice_eval_http_request_duration_seconds',
      help: 'HTTP requests by method, route template (unmatched: routes no route matched) and status.',
      labelNames: ['method', 'route', 'status'],
      buckets: HTTP_BUCKETS,
      registers,
    });
    this.#modelCalls = new Counter({
      name: 'voice_eval_model_calls_total',
      help: 'Model calls (chat, transcription, speech, models) by provider, kind and outcome (ok or error).',
      labelNames: ['provider', 'kind', 'outcome'],
      registers,
    });
    this.#modelErrors = new Counter({
      name: 'voice_eval_model_call_errors_total',
      help: 'Failed model calls by provider, kind and error code.',
      labelNames: ['provider', 'kind', 'code'],
      registers,
    });
    this.#modelDuration = new Histogram({
      name: 'voice_eval_model_call_duration_seconds',
      help: 'Duration of model calls, retries included, by provider and kind.',
      labelNames: ['provider', 'kind'],
      buckets: MODEL_BUCKETS,
      registers,
    });
    this.#modelTokens = new Counter({
      name: 'voice_eval_model_tokens_total',
      help: 'Tokens the providers reported, by provider, kind and type (prompt or completion).',
      labelNames: ['provider', 'kind', 'type'],
      registers,
    });
    this.#modelAudio = new Counter({
      name: 'voice_eval_model_audio_seconds_total',
      help: 'Seconds of audio transcribed or synthesised, by provider and kind.',
      labelNames: ['provider', 'kind'],
      registers,
    });
    this.#webhookDeliveries = new Counter({
      name: 'voice_eval_webhook_deliveries_total',
      help: 'Webhook delivery attempts by outcome (delivered, failed, exhausted, disabled).',
      labelNames: ['outcome'],
      registers,
    });
    for (const outcome of WEBHOOK_DELIVERY_OUTCOMES) this.#webhookDeliveries.inc({ outcome }, 0);
  }

  /** Records one HTTP request; `route` is a route template or `unmatched`. */
  observeHttp(method: string, route: string, status: number, seconds: number): void {
    const key = `${method} ${status} ${route}`;
    let child = this.#httpChildren.get(key);
    if (!child) {
      child = this.#httpDuration.labels({ method, route, status: String(status) });
      this.#httpChildren.set(key, child);
    }
    child.observe(seconds);
  }

  /** Records one finished model call (the provider gateway's observer). */
  readonly observeModelCall: ModelCallObserver = (event: ModelCallEvent) => {
    const provider = providerLabel(event.provider);
    const { kind } = event;
    this.#modelCalls.inc({ provider, kind, outcome: event.error ? 'error' : 'ok' });
    if (event.error) this.#modelErrors.inc({ provider, kind, code: event.error });
    this.#modelDuration.observe({ provider, kind }, event.seconds);
  };

  /** Records the usage a provider reported for a call (a usage hook of the gateway). */
  readonly observeUsage = (event: UsageEvent): void => {
    const provider = providerLabel(event.provider);
    const { kind } = event;
    if (event.usage.prompt_tokens > 0)
      this.#modelTokens.inc({ provider, kind, type: 'prompt' }, event.usage.prompt_tokens);
    if (event.usage.completion_tokens > 0)
      this.#modelTokens.inc({ provider, kind, type: 'completion' }, event.usage.completion_tokens);
    if (event.usage.audio_seconds) this.#modelAudio.inc({ provider, kind }, event.usage.audio_seconds);
  };

  /** Counts one webhook delivery attempt by its outcome. */
  webhookDelivery(outcome: WebhookDeliveryOutcome): void {
    this.#webhookDeliveries.inc({ outcome });
  }

  /**
   * Adds the gauges read from the database at scrape time: work items by kind and state, and
   * dispatched items in flight against each limit.
   */
  collectFrom(sources: MetricsSources): void {
    const registers = [this.registry];
    const failed = (what: string) => (err: unknown) => {
      sources.logger.warn({ err, what }, 'metrics:collect_failed');
      return undefined;
    };
    new Gauge({
      name: 'voice_eval_work_items',
      help: 'Background work items waiting (pending) or worked on (running), by kind, across every instance.',
      labelNames: ['kind', 'state'],
      registers,
      async collect() {
        this.reset();
        const result = await sources.db.raw(WORK_ITEMS_SQL).catch(failed('work_items'));
        if (!result) return;
        for (const { kind } of WORK_ITEMS) for (const state of WORK_ITEM_STATES) this.set({ kind, state }, 0);
        for (const row of result.rows as Array<{ kind: string; state: string; n: number }>) {
          this.set({ kind: row.kind, state: row.state }, Number(row.n));
        }
      },
    });
    new Gauge({
      name: 'voice_eval_dispatch_limit',
      help: 'Configured dispatch limits: items in flight at once overall (global), per organization, workspace and job.',
      labelNames: ['scope'],
      registers,
      collect() {
        for (const scope of DISPATCH_SCOPES) this.set({ scope }, sources.limits[scope]);
      },
    });
    // one read of the in-flight rows serves the two gauges below in the same scrape
    let inFlight: Promise<Map<string, Map<string, number>> | undefined> | undefined;
    const readInFlight = () => {
      inFlight ??= sources.dispatcher
        .inFlight(sources.db, sources.now())
        .then((rows) => {
          const by = new Map(DISPATCH_SCOPES.map((s) => [s, new Map<string, number>()]));
          const add = (scope: (typeof DISPATCH_SCOPES)[number], key: string, n: number) =>
            by.get(scope)!.set(key, (by.get(scope)!.get(key) ?? 0) + n);
          for (const row of rows) {
            add('global', '', row.n);
            add('organization', row.organization_id, row.n);
            add('workspace', row.workspace_id, row.n);
            add('job', row.job_id, row.n);
          }
          return by;
        }, failed('dispatch_in_flight'))
        .finally(() => {
          // a scrape starts every collector in the same tick: the next scrape reads afresh
          inFlight = undefined;
        });
      return inFlight;
    };
    new Gauge({
      name: 'voice_eval_dispatch_in_flight',
      help:
        'Dispatched items in flight across every instance: overall (global), and in the busiest organization, ' +
        'workspace and job (compare with voice_eval_dispatch_limit).',
      labelNames: ['scope'],
      registers,
      async collect() {
        this.reset();
        const by = await readInFlight();
        if (!by) return;
        for (const scope of DISPATCH_SCOPES) this.set({ scope }, Math.max(0, ...by.get(scope)!.values()));
      },
    });
    new Gauge({
      name: 'voice_eval_dispatch_at_limit',
      help: 'Organizations, workspaces and jobs whose in-flight items have reached their limit (global: 0 or 1).',
      labelNames: ['scope'],
      registers,
      async collect() {
        this.reset();
        const by = await readInFlight();
        if (!by) return;
        for (const scope of DISPATCH_SCOPES) {
          const limit = sources.limits[scope];
          this.set({ scope }, [...by.get(scope)!.values()].filter((n) => n >= limit).length);
        }
      },
    });
  }
}

/**
 * Counts one webhook delivery attempt in the server's metrics (`voice_eval_webhook_deliveries_total`):
 * call it once per attempt with how it ended. Cheap, and harmless when metrics are off.
 */
export const recordWebhookDelivery = (
  deps: { metrics: ServerMetrics },
  outcome: WebhookDeliveryOutcome,
): void => deps.metrics.webhookDelivery(outcome);
