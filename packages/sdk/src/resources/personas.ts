import { contract, type Persona } from '@voice-eval/contract';
import type { ApiPromise } from '../core/api-promise.js';
import type { RequestOptions } from '../core/options.js';
import type { PagePromise } from '../core/pagination.js';
import { Resource } from '../core/resource.js';
import type { RequestBody, RequestQuery } from '../core/route-types.js';
import { buildForm, type Uploadable } from '../core/uploads.js';

const routes = contract.personas;

/** `client.personas`: simulated callers (built-in and custom). */
export class Personas extends Resource {
  /** List built-in personas and the workspace's custom ones. */
  list(query?: RequestQuery<'personas', 'list'>, options?: RequestOptions): PagePromise<Persona> {
    return this._client.list(routes.list, { query }, options);
  }

  /** Create a custom persona. */
  create(body: RequestBody<'personas', 'create'>, options?: RequestOptions): ApiPromise<Persona> {
    return this._client.request(routes.create, { body }, options);
  }

  /** Get a persona. */
  get(id: string, options?: RequestOptions): ApiPromise<Persona> {
    return this._client.request(routes.get, { params: { persona_id: id } }, options);
  }

  /** Update a custom persona. */
  update(id: string, body: RequestBody<'personas', 'update'>, options?: RequestOptions): ApiPromise<Persona> {
    return this._client.request(routes.update, { params: { persona_id: id }, body }, options);
  }

  /** Delete a custom persona and its ambient audio (409 in_use while evaluators use it). */
  delete(id: string, options?: RequestOptions): ApiPromise<void> {
    return this._client.request(routes.delete, { params: { persona_id: id } }, options);
  }

  /** Upload or replace a persona's custom ambient audio: WAV, MP3, OGG, FLAC or M4A (enterprise feature). */
  uploadAmbientAudio(id: string, file: Uploadable, options?: RequestOptions): ApiPromise<Persona> {
    const body = buildForm({}, { file });
    return this._client.request(routes.uploadAmbientAudio, { params: { persona_id: id }, body }, options);
  }

  /** Delete a persona's custom ambient audio (enterprise feature). */
  deleteAmbientAudio(id: string, options?: RequestOptions): ApiPromise<Persona> {
    return this._client.request(routes.deleteAmbientAudio, { params: { persona_id: id } }, options);
  }
}
