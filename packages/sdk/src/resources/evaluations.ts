import { contract, type Evaluation, type EvaluationRow } from '@voice-eval/contract';
import type { ApiPromise } from '../core/api-promise.js';
import type { RequestOptions } from '../core/options.js';
import type { PagePromise } from '../core/pagination.js';
import { type PollOptions, poll } from '../core/polling.js';
import { Resource } from '../core/resource.js';
import type { RequestBody, RequestQuery } from '../core/route-types.js';

const routes = contract.evaluations;

/** Statuses after which an evaluation no longer changes. */
export const TERMINAL_EVALUATION_STATUSES: ReadonlyArray<Evaluation['status']> = [
  'completed',
  'failed',
  'cancelled',
];

/** `client.evaluations`: scoring of call-import rows with metrics (jobs). */
export class Evaluations extends Resource {
  /** Start an evaluation of a call import's rows. */
  create(body: RequestBody<'evaluations', 'create'>, options?: RequestOptions): ApiPromise<Evaluation> {
    return this._client.request(routes.create, { body }, options);
  }

  /** List evaluations of the workspace, newest first. */
  list(query?: RequestQuery<'evaluations', 'list'>, options?: RequestOptions): PagePromise<Evaluation> {
    return this._client.list(routes.list, { query }, options);
  }

  /** Get an evaluation with its row counts. */
  get(id: string, options?: RequestOptions): ApiPromise<Evaluation> {
    return this._client.request(routes.get, { params: { evaluation_id: id } }, options);
  }

  /** List the scored rows of an evaluation. */
  listRows(
    id: string,
    query?: RequestQuery<'evaluations', 'listRows'>,
    options?: RequestOptions,
  ): PagePromise<EvaluationRow> {
    return this._client.list(routes.listRows, { params: { evaluation_id: id }, query }, options);
  }

  /** Cancel an evaluation: its pending and running rows become cancelled. */
  cancel(id: string, options?: RequestOptions): ApiPromise<Evaluation> {
    return this._client.request(routes.cancel, { params: { evaluation_id: id } }, options);
  }

  /** Polls the evaluation until it is completed, failed or cancelled, and resolves with it. */
  waitForCompletion(id: string, options: PollOptions<Evaluation> = {}): Promise<Evaluation> {
    return poll(
      (signal) => this.get(id, { signal }),
      (e) => TERMINAL_EVALUATION_STATUSES.includes(e.status),
      options,
      `evaluation ${id}`,
    );
  }
}
