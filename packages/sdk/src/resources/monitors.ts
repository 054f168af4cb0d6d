import { contract, type Monitor, type MonitorAlert, type MonitorCall } from '@voice-eval/contract';
import type { ApiPromise } from '../core/api-promise.js';
import type { RequestOptions } from '../core/options.js';
import type { PagePromise } from '../core/pagination.js';
import { Resource } from '../core/resource.js';
import type { RequestBody, RequestQuery } from '../core/route-types.js';

const routes = contract.monitors;

/**
 * `client.monitors`: production monitors. Each scores a share of an agent's production calls on
 * arrival (call n is judged iff floor(n·r) > floor((n−1)·r)) and raises alerts by its rules
 * (`monitor.alert.fired` webhooks, and Slack when a URL is set).
 */
export class Monitors extends Resource {
  /** List the workspace's monitors (`agent_id`, `is_active` filters). */
  list(query?: RequestQuery<'monitors', 'list'>, options?: RequestOptions): PagePromise<Monitor> {
    return this._client.list(routes.list, { query }, options);
  }

  /**
   * Start monitoring an agent's production calls with `metric_ids`, judging a `sample_rate` share
   * of them; `slack_webhook_url` is write-only (`slack_configured` in the answer).
   */
  create(body: RequestBody<'monitors', 'create'>, options?: RequestOptions): ApiPromise<Monitor> {
    return this._client.request(routes.create, { body }, options);
  }

  /** Get a monitor, with its counts of calls seen and judged. */
  get(id: string, options?: RequestOptions): ApiPromise<Monitor> {
    return this._client.request(routes.get, { params: { monitor_id: id } }, options);
  }

  /**
   * Change a monitor: other `metric_ids` start a new evaluation, new `rules` replace the old ones
   * (cooldowns restart), `slack_webhook_url: null` removes the Slack URL.
   */
  update(id: string, body: RequestBody<'monitors', 'update'>, options?: RequestOptions): ApiPromise<Monitor> {
    return this._client.request(routes.update, { params: { monitor_id: id }, body }, options);
  }

  /** Delete a monitor and its alert history (its evaluation and scores stay). */
  delete(id: string, options?: RequestOptions): ApiPromise<void> {
    return this._client.request(routes.delete, { params: { monitor_id: id } }, options);
  }

  /**
   * The calls the monitor saw, newest first: each call's number, whether it was judged, and its
   * outcome (`passed`, `failed`, `not_sampled`, or `error` when the platform could not score it).
   */
  calls(
    id: string,
    query?: RequestQuery<'monitors', 'calls'>,
    options?: RequestOptions,
  ): PagePromise<MonitorCall> {
    return this._client.list(routes.calls, { params: { monitor_id: id }, query }, options);
  }

  /** The monitor's alerts, newest first. */
  alerts(
    id: string,
    query?: RequestQuery<'monitors', 'alerts'>,
    options?: RequestOptions,
  ): PagePromise<MonitorAlert> {
    return this._client.list(routes.alerts, { params: { monitor_id: id }, query }, options);
  }
}
