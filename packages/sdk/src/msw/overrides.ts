import type { AppRoute, ServerInferResponseBody, ServerInferResponses } from '@ts-rest/core';
import type { Problem } from '@voice-eval/contract';
import type { HttpHandler, RequestHandlerOptions } from 'msw';
import type { Area, RouteName, RouteOf } from '../core/route-types.js';
import { type MockReply, toHttpResponse } from './respond.js';
import { ROUTES, routeHandler } from './routes.js';

type SuccessStatus<R extends AppRoute> = Extract<keyof R['responses'], 200 | 201 | 202 | 204>;

type ErrorStatuses = 400 | 401 | 403 | 404 | 409 | 413 | 415 | 422 | 429 | 500;

/** Error replies may give only some problem fields: the rest is filled in. */
type LooseErrors<T> = T extends { status: infer S; body: infer B }
  ? S extends ErrorStatuses
    ? { status: S; body?: Partial<B> }
    : T
  : T;

/** A reply a route may give: a declared status with its body (for errors, any problem fields). */
export type MockRouteReply<R extends AppRoute> = LooseErrors<ServerInferResponses<R>> & {
  headers?: Record<string, string>;
};

/** The success body of a route, as a mock writes it. */
export type MockSuccessBody<R extends AppRoute> = ServerInferResponseBody<R, SuccessStatus<R>>;

/** What a resolver receives. */
export interface MockResolverInfo {
  request: Request;
  params: Record<string, unknown>;
  url: URL;
}

/** Computes a reply per request; only declared statuses and matching bodies compile. */
export type MockResolver<R extends AppRoute> = (
  info: MockResolverInfo,
) => MockRouteReply<R> | Promise<MockRouteReply<R>>;

/** Statuses the error shortcut produces. */
export type MockErrorStatus = 400 | 401 | 403 | 404 | 409 | 413 | 415 | 422 | 429 | 500 | 502 | 503 | 504;

/** Options of `.error(...)`: extra headers, and MSW's `once`. */
export type MockErrorOptions = RequestHandlerOptions & { headers?: Record<string, string> };

/** A typed override of one route. */
export interface RouteMock<R extends AppRoute> {
  /**
   * A handler answering this route with `data` (the success status; checked now) or with what
   * `resolver` returns (checked per request). Without an argument: an empty success.
   */
  (resolverOrData?: MockResolver<R> | MockSuccessBody<R>, options?: RequestHandlerOptions): HttpHandler;
  /**
   * A handler answering `status` with a problem body and `x-request-id`; `problem` overrides
   * its fields. A 429 carries `Retry-After: 0` unless `headers` say otherwise.
   */
  error(status: MockErrorStatus, problem?: Partial<Problem>, options?: MockErrorOptions): HttpHandler;
}

/** `mocks.<area>.<route>` for every contract route. */
export type RouteMocks = { [A in Area]: { [K in RouteName<A>]: RouteMock<RouteOf<A, K>> } };

const successOf = (route: AppRoute): number =>
  Number(Object.keys(route.responses).find((s) => Number(s) < 300) ?? 200);

/** Builds the typed overrides; `requestId` numbers the responses. */
export const createRouteMocks = (baseUrl: string, requestId: () => string): RouteMocks => {
  const mocks: Record<string, Record<string, unknown>> = {};
  for (const { area, name, route } of ROUTES) {
    const label = `${area}.${name}`;
    const success = successOf(route);
    const answer = (reply: MockReply) => toHttpResponse(route, reply, requestId(), label);
    const mock = (resolverOrData?: unknown, options?: RequestHandlerOptions): HttpHandler => {
      if (typeof resolverOrData === 'function') {
        const resolver = resolverOrData as (info: MockResolverInfo) => MockReply | Promise<MockReply>;
        return routeHandler(
          baseUrl,
          route,
          async (request, params) => answer(await resolver({ request, params, url: new URL(request.url) })),
          options,
        );
      }
      // Check static data now, so a wrong fixture fails where it is written.
      toHttpResponse(route, { status: success, body: resolverOrData }, 'check', label);
      return routeHandler(baseUrl, route, () => answer({ status: success, body: resolverOrData }), options);
    };
    mock.error = (
      status: MockErrorStatus,
      problem: Partial<Problem> = {},
      options: MockErrorOptions = {},
    ) => {
      const { headers, ...handlerOptions } = options;
      const retry: Record<string, string> = status === 429 ? { 'retry-after': '0' } : {};
      return routeHandler(
        baseUrl,
        route,
        () => answer({ status, body: problem, headers: { ...retry, ...headers } }),
        handlerOptions,
      );
    };
    mocks[area] ??= {};
    mocks[area][name] = mock;
  }
  return mocks as unknown as RouteMocks;
};
