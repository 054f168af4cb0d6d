import { contract, type InvitationCreated, type Session } from '@voice-eval/contract';
import type { ApiPromise } from '../core/api-promise.js';
import type { RequestOptions } from '../core/options.js';
import { Resource } from '../core/resource.js';
import type { RequestBody } from '../core/route-types.js';

const routes = contract.invitations;

/** `client.invitations`: invite people to the organization and accept invitations. */
export class Invitations extends Resource {
  /** Invite an e-mail to the organization (returns the one-time token; replaces a pending invitation). */
  create(
    body: RequestBody<'invitations', 'create'>,
    options?: RequestOptions,
  ): ApiPromise<InvitationCreated> {
    return this._client.request(routes.create, { body }, options);
  }

  /** Accept an invitation, creating the invitee's account if needed; returns a session in that organization. */
  accept(body: RequestBody<'invitations', 'accept'>, options?: RequestOptions): ApiPromise<Session> {
    return this._client.request(routes.accept, { body }, options);
  }
}
