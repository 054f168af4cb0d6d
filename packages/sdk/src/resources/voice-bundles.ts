import { contract, type VoiceBundle } from '@voice-eval/contract';
import type { ApiPromise } from '../core/api-promise.js';
import type { RequestOptions } from '../core/options.js';
import type { PagePromise } from '../core/pagination.js';
import { Resource } from '../core/resource.js';
import type { RequestBody, RequestQuery } from '../core/route-types.js';

const routes = contract.voiceBundles;

/** `client.voiceBundles`: speech-to-text, LLM, text-to-speech and speech-to-speech configurations. */
export class VoiceBundles extends Resource {
  /** Create a voice bundle in the active workspace. */
  create(body: RequestBody<'voiceBundles', 'create'>, options?: RequestOptions): ApiPromise<VoiceBundle> {
    return this._client.request(routes.create, { body }, options);
  }

  /** List voice bundles. */
  list(query?: RequestQuery<'voiceBundles', 'list'>, options?: RequestOptions): PagePromise<VoiceBundle> {
    return this._client.list(routes.list, { query }, options);
  }

  /** Get a voice bundle. */
  get(id: string, options?: RequestOptions): ApiPromise<VoiceBundle> {
    return this._client.request(routes.get, { params: { voice_bundle_id: id } }, options);
  }

  /** Update a voice bundle. */
  update(
    id: string,
    body: RequestBody<'voiceBundles', 'update'>,
    options?: RequestOptions,
  ): ApiPromise<VoiceBundle> {
    return this._client.request(routes.update, { params: { voice_bundle_id: id }, body }, options);
  }

  /** Delete a voice bundle. */
  delete(id: string, options?: RequestOptions): ApiPromise<void> {
    return this._client.request(routes.delete, { params: { voice_bundle_id: id } }, options);
  }
}
