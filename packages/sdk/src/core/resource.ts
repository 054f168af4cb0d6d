import type { ApiClient } from './api-client.js';

/** Base of the client's namespaces (`client.metrics`, ...): thin methods over contract routes. */
export abstract class Resource {
  protected readonly _client: ApiClient;

  constructor(client: ApiClient) {
    this._client = client;
  }
}
