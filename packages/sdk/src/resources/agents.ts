import { type Agent, type AgentTestResult, contract } from '@voice-eval/contract';
import type { ApiPromise } from '../core/api-promise.js';
import type { RequestOptions } from '../core/options.js';
import type { PagePromise } from '../core/pagination.js';
import { Resource } from '../core/resource.js';
import type { RequestBody, RequestQuery } from '../core/route-types.js';

const routes = contract.agents;

/** `client.agents`: voice agents under test. */
export class Agents extends Resource {
  /** List agents of the workspace. */
  list(query?: RequestQuery<'agents', 'list'>, options?: RequestOptions): PagePromise<Agent> {
    return this._client.list(routes.list, { query }, options);
  }

  /** Create an agent. */
  create(body: RequestBody<'agents', 'create'>, options?: RequestOptions): ApiPromise<Agent> {
    return this._client.request(routes.create, { body }, options);
  }

  /** Get an agent. */
  get(id: string, options?: RequestOptions): ApiPromise<Agent> {
    return this._client.request(routes.get, { params: { agent_id: id } }, options);
  }

  /** Update an agent. */
  update(id: string, body: RequestBody<'agents', 'update'>, options?: RequestOptions): ApiPromise<Agent> {
    return this._client.request(routes.update, { params: { agent_id: id }, body }, options);
  }

  /**
   * Test the agent's connection with one greeting round trip. A failure to reach the agent is a
   * result with `ok: false` and a typed `error`; an agent without a connection is a 422.
   */
  test(id: string, options?: RequestOptions): ApiPromise<AgentTestResult> {
    return this._client.request(routes.test, { params: { agent_id: id } }, options);
  }

  /** Delete an agent (409 in_use while evaluators or suites use it). */
  delete(id: string, options?: RequestOptions): ApiPromise<void> {
    return this._client.request(routes.delete, { params: { agent_id: id } }, options);
  }
}
