import {
  type ApiKeyCreated,
  type AuthConfig,
  contract,
  type InvitationPreview,
  type Me,
  type Session,
} from '@voice-eval/contract';
import type { ApiPromise } from '../core/api-promise.js';
import type { RequestOptions } from '../core/options.js';
import { Resource } from '../core/resource.js';
import type { RequestBody } from '../core/route-types.js';

const routes = contract.auth;

/**
 * `client.auth`: sessions, the caller and API key generation. `login`, `signup` and `refresh`
 * return sessions but do not change this client's credentials: build a client with `email` and
 * `password`, or with the tokens, for that.
 */
export class Auth extends Resource {
  /** Get the public authentication configuration. */
  config(options?: RequestOptions): ApiPromise<AuthConfig> {
    return this._client.request(routes.config, {}, options);
  }

  /** Create a session with e-mail and password. */
  login(body: RequestBody<'auth', 'login'>, options?: RequestOptions): ApiPromise<Session> {
    return this._client.request(routes.login, { body }, options);
  }

  /** Create a user with a new organization, its default workspace and an OWNER membership. */
  signup(body: RequestBody<'auth', 'signup'>, options?: RequestOptions): ApiPromise<Session> {
    return this._client.request(routes.signup, { body }, options);
  }

  /** Rotate a refresh token into a new session (reuse revokes the token family). */
  refresh(body: RequestBody<'auth', 'refresh'>, options?: RequestOptions): ApiPromise<Session> {
    return this._client.request(routes.refresh, { body }, options);
  }

  /** Preview an invitation by its token (unknown, revoked or expired: 404). */
  invitationPreview(token: string, options?: RequestOptions): ApiPromise<InvitationPreview> {
    return this._client.request(routes.invitationPreview, { params: { token: token } }, options);
  }

  /** Generate an organization API key (interactive users only; the key is shown once). */
  generateKey(
    body: RequestBody<'auth', 'generateKey'> = {},
    options?: RequestOptions,
  ): ApiPromise<ApiKeyCreated> {
    return this._client.request(routes.generateKey, { body }, options);
  }

  /** Get a session for another organization the user is an active member of. */
  switchOrg(body: RequestBody<'auth', 'switchOrg'>, options?: RequestOptions): ApiPromise<Session> {
    return this._client.request(routes.switchOrg, { body }, options);
  }

  /** Get the caller: user or API key, organization, workspace, role and memberships. */
  me(options?: RequestOptions): ApiPromise<Me> {
    return this._client.request(routes.me, {}, options);
  }

  /** Revoke a refresh token and its family (always 204, even for unknown tokens). */
  logout(body: RequestBody<'auth', 'logout'>, options?: RequestOptions): ApiPromise<void> {
    return this._client.request(routes.logout, { body }, options);
  }
}
