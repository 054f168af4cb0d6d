import type { AppRoute } from '@ts-rest/core';
import { contract, type RouteMetadata, type Session } from '@voice-eval/contract';
import { type Authenticator, apiKeyAuth, noAuth, SessionAuth } from '../internal/auth.js';
import { type HttpSettings, send } from '../internal/http.js';
import { buildPath, buildQuery } from '../internal/url.js';
import { ApiPromise, type ApiResponse } from './api-promise.js';
import { AuthenticationError, VoiceEvalError } from './errors.js';
import { createLogger } from './logger.js';
import type { ClientOptions, RequestOptions } from './options.js';
import { type PageData, PagePromise } from './pagination.js';
import type { ItemOf, ResponseOf } from './route-types.js';

/** Path parameters, query and body of one call. */
export interface RouteArgs {
  params?: Record<string, string>;
  query?: object;
  body?: unknown;
}

const env = (name: string): string | undefined => globalThis.process?.env?.[name] || undefined;

const isPublic = (route: AppRoute): boolean => (route.metadata as RouteMetadata | undefined)?.public === true;

/** The media types of a route that answers with bytes, or undefined for JSON. */
const binaryTypes = (route: AppRoute): string[] | undefined =>
  (route.metadata as RouteMetadata | undefined)?.binary?.mediaTypes;

/**
 * The request machinery behind `VoiceEval`: credentials, workspace, idempotency keys, retries
 * and validation. Resources call `request` and `list` with a contract route.
 */
export class ApiClient {
  /** The options this client was built with (for `withOptions`). */
  protected readonly _options: ClientOptions;
  /** Shared by copies made with `withOptions`/`withWorkspace`, so they share one session. */
  protected readonly _auth: Authenticator;
  readonly #baseUrl: string;
  readonly #http: HttpSettings;

  protected constructor(options: ClientOptions, auth?: Authenticator) {
    this._options = options;
    const baseUrl = options.baseUrl ?? env('VOICE_EVAL_BASE_URL');
    if (!baseUrl) throw new VoiceEvalError('Pass `baseUrl` (or set VOICE_EVAL_BASE_URL).');
    this.#baseUrl = baseUrl.replace(/\/+$/, '');
    this.#http = { fetch: options.fetch, logger: createLogger(options.logger, options.logLevel) };
    this._auth = auth ?? this.#createAuth(options);
  }

  #createAuth(options: ClientOptions): Authenticator {
    const session = options.accessToken ?? options.refreshToken ?? options.email ?? options.password;
    if (options.apiKey !== undefined && session !== undefined) {
      throw new VoiceEvalError('Pass either `apiKey` or session credentials, not both.');
    }
    if (options.apiKey !== undefined) return apiKeyAuth(options.apiKey);
    if ((options.email === undefined) !== (options.password === undefined)) {
      throw new VoiceEvalError('Pass `email` and `password` together.');
    }
    if (session === undefined) {
      const key = env('VOICE_EVAL_API_KEY');
      return key ? apiKeyAuth(key) : noAuth;
    }
    const post = (route: AppRoute, body: unknown) =>
      this.#execute(route, { body }, { idempotencyKey: null }).then((r) => r.data as Session);
    return new SessionAuth({
      ...options,
      logger: this.#http.logger,
      login: (body) => post(contract.auth.login, body),
      refresh: (refreshToken) => post(contract.auth.refresh, { refresh_token: refreshToken }),
    });
  }

  /** Sends `route` and resolves with its validated success body. */
  request<R extends AppRoute>(
    route: R,
    args: RouteArgs = {},
    options?: RequestOptions,
  ): ApiPromise<ResponseOf<R>> {
    return new ApiPromise(this.#execute(route, args, options) as Promise<ApiResponse<ResponseOf<R>>>);
  }

  /**
   * Sends a route that answers with bytes (a recording) and resolves with its `Response`, the body
   * unread; errors are thrown as for every route.
   */
  download(route: AppRoute, args: RouteArgs = {}, options?: RequestOptions): ApiPromise<Response> {
    return new ApiPromise(this.#execute(route, args, options) as Promise<ApiResponse<Response>>);
  }

  /** Sends a list route; the result is awaitable to a `Page` and async-iterable across pages. */
  list<R extends AppRoute>(route: R, args: RouteArgs = {}, options?: RequestOptions): PagePromise<ItemOf<R>> {
    const fetchPage = (page: number): PagePromise<ItemOf<R>> =>
      PagePromise.from(
        this.#execute(route, { ...args, query: { ...args.query, page } }, options) as Promise<
          ApiResponse<PageData<ItemOf<R>>>
        >,
        fetchPage,
      );
    return PagePromise.from(
      this.#execute(route, args, options) as Promise<ApiResponse<PageData<ItemOf<R>>>>,
      fetchPage,
    );
  }

  async #execute(
    route: AppRoute,
    args: RouteArgs,
    options: RequestOptions = {},
  ): Promise<ApiResponse<unknown>> {
    // Upload bodies arrive as a promise of FormData (files may be streams read first).
    const payload: unknown = await args.body;
    const url = `${this.#baseUrl}${buildPath(route.path, args.params)}${buildQuery(args.query)}`;
    const open = isPublic(route);
    const mutation = route.method === 'POST' || route.method === 'PATCH';
    const idempotencyKey =
      options.idempotencyKey === undefined
        ? mutation && !open
          ? globalThis.crypto.randomUUID()
          : undefined
        : (options.idempotencyKey ?? undefined);
    const form = payload instanceof FormData;
    const workspaceId = options.workspaceId ?? this._options.workspaceId;
    const binary = binaryTypes(route);
    const headers: Record<string, string> = {
      accept: binary ? [...binary, 'application/problem+json'].join(', ') : 'application/json',
      ...(payload !== undefined && !form ? { 'content-type': 'application/json' } : {}),
      ...(workspaceId ? { 'x-workspace-id': workspaceId } : {}),
      ...(idempotencyKey ? { 'idempotency-key': idempotencyKey } : {}),
      ...this._options.defaultHeaders,
      ...options.headers,
    };
    const body = payload === undefined || form ? (payload as FormData | undefined) : JSON.stringify(payload);
    const attempt = (credentials: Record<string, string>) =>
      send(this.#http, {
        method: route.method,
        url,
        headers: { ...headers, ...credentials },
        body,
        responses: route.responses as Record<number, unknown>,
        signal: options.signal,
        timeout: options.timeout ?? this._options.timeout ?? 60_000,
        maxRetries: options.maxRetries ?? this._options.maxRetries ?? 2,
        retryMutations: idempotencyKey !== undefined,
        binary: binary !== undefined,
        validate:
          this._options.validateResponses === undefined
            ? 'tolerant'
            : this._options.validateResponses
              ? 'strict'
              : 'off',
      });
    if (open) return attempt({});
    const credentials = await this._auth.headers();
    try {
      return await attempt(credentials);
    } catch (error) {
      if (!(error instanceof AuthenticationError) || !(await this._auth.recover(credentials))) throw error;
      return attempt(await this._auth.headers());
    }
  }
}
