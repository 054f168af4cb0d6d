import type { AppRoute, ZodInferOrType, ZodInputOrType } from '@ts-rest/core';
import type { Contract } from '@voice-eval/contract';

/** A contract area: `metrics`, `callImports`, ... (also the client's namespaces). */
export type Area = keyof Contract & string;

/** A route name within an area: `list`, `get`, `transcribe`, ... */
export type RouteName<A extends Area> = keyof Contract[A] & string;

/** The contract route `A.K`. */
export type RouteOf<A extends Area, K extends RouteName<A>> = Contract[A][K] extends AppRoute
  ? Contract[A][K]
  : never;

type SuccessStatus<R extends AppRoute> = Extract<keyof R['responses'], 200 | 201 | 202 | 204>;
type Body<R extends AppRoute> = ZodInferOrType<R['responses'][SuccessStatus<R>]>;

/** What a route answers on success; `undefined` for 204. */
export type ResponseOf<R extends AppRoute> = Body<R>;
/** The body a route accepts, as the caller writes it (defaults optional). */
export type BodyOf<R extends AppRoute> = R extends { body: infer B } ? ZodInputOrType<B> : never;
/** The query a route accepts, as the caller writes it. */
export type QueryOf<R extends AppRoute> = R extends { query: infer Q } ? ZodInputOrType<Q> : never;
/** The item type of a list route. */
export type ItemOf<R extends AppRoute> = ResponseOf<R> extends { items: Array<infer I> } ? I : never;

/** Request body of `A.K`, e.g. `RequestBody<'metrics', 'generate'>`. */
export type RequestBody<A extends Area, K extends RouteName<A>> = BodyOf<RouteOf<A, K>>;
/** Query of `A.K`, e.g. `RequestQuery<'metrics', 'list'>`. */
export type RequestQuery<A extends Area, K extends RouteName<A>> = QueryOf<RouteOf<A, K>>;
/** Success response body of `A.K`, e.g. `ResponseBody<'metrics', 'parseBulk'>`. */
export type ResponseBody<A extends Area, K extends RouteName<A>> = ResponseOf<RouteOf<A, K>>;
