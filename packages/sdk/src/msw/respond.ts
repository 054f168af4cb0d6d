import type { AppRoute } from '@ts-rest/core';
import type { ErrorCode, Problem, RouteMetadata } from '@voice-eval/contract';
import { HttpResponse } from 'msw';
import type { ZodError, ZodTypeAny } from 'zod';

/** What a mock answers: a status, a body (for errors, problem fields to fill in) and headers. */
export interface MockReply {
  status: number;
  body?: unknown;
  headers?: Record<string, string>;
}

/** The code a problem gets for each status unless told otherwise. */
export const DEFAULT_CODES: Record<number, ErrorCode> = {
  400: 'bad_request',
  401: 'unauthenticated',
  403: 'forbidden',
  404: 'not_found',
  409: 'conflict',
  413: 'payload_too_large',
  415: 'unsupported_media_type',
  416: 'range_not_satisfiable',
  422: 'validation_failed',
  429: 'rate_limited',
};

/** An RFC 9457 body like the server's. */
export const problemBody = (status: number, requestId: string, overrides: Partial<Problem> = {}): Problem => {
  const code = overrides.code ?? DEFAULT_CODES[status] ?? 'internal';
  return {
    type: `urn:voice-eval:problem:${code}`,
    title: code.replaceAll('_', ' '),
    status,
    code,
    request_id: requestId,
    detail: `Mocked ${status} response.`,
    ...overrides,
  };
};

const isSchema = (value: unknown): value is ZodTypeAny =>
  typeof (value as { safeParse?: unknown } | undefined)?.safeParse === 'function';

const describe = (error: ZodError): string =>
  error.issues.map((i) => `${i.path.join('.') || '(root)'}: ${i.message}`).join('; ');

/**
 * Turns a reply into a `Response`, parsing the body with the route's schema for the status. A
 * body the contract does not allow throws, so a drifting mock fails the test that uses it.
 */
export const toHttpResponse = (
  route: AppRoute,
  reply: MockReply,
  requestId: string,
  label: string,
): Response => {
  const { status } = reply;
  // Error replies carry a (partial) problem: the rest is filled in like the server would.
  const body =
    status >= 400 ? problemBody(status, requestId, (reply.body ?? {}) as Partial<Problem>) : reply.body;
  const declared = route.responses as Record<number, unknown>;
  if (status < 400 && !(status in declared)) {
    throw new Error(`Mock for ${label} answered ${status}, which the contract does not declare.`);
  }
  const schema = declared[status];
  let payload = body;
  if (isSchema(schema)) {
    const result = schema.safeParse(body);
    if (!result.success) {
      throw new Error(
        `Mock ${status} response for ${label} does not match the contract: ${describe(result.error)}`,
      );
    }
    payload = result.data;
  }
  const headers = { 'x-request-id': requestId, ...reply.headers };
  // a route of bytes (a recording) answers with them as they are
  if (payload instanceof Uint8Array || payload instanceof Blob)
    return new HttpResponse(payload, { status, headers });
  if (status === 204 || status === 205 || payload === undefined)
    return new HttpResponse(null, { status, headers });
  const type = status >= 400 ? 'application/problem+json' : 'application/json';
  return new HttpResponse(JSON.stringify(payload), { status, headers: { 'content-type': type, ...headers } });
};

/** A request after the checks the server makes: credentials, path, query and body. */
export interface ParsedRequest {
  request: Request;
  params: Record<string, string>;
  query: Record<string, unknown>;
  body: unknown;
  /** `X-Workspace-Id`, else the default workspace. */
  workspaceId: string;
}

const queryObject = (url: URL): Record<string, unknown> => {
  const out: Record<string, unknown> = {};
  for (const key of new Set(url.searchParams.keys())) {
    const values = url.searchParams.getAll(key);
    out[key] = values.length > 1 ? values : values[0];
  }
  return out;
};

const fieldErrors = (where: string, error: ZodError) =>
  error.issues.map((i) => ({ path: [where, ...i.path].join('.'), message: i.message }));

const readBody = async (route: AppRoute, request: Request): Promise<{ body: unknown } | { bad: true }> => {
  if (route.method === 'GET') return { body: undefined };
  if ('contentType' in route && route.contentType === 'multipart/form-data') {
    return { body: await request.formData() };
  }
  const text = await request.text();
  if (text === '') return { body: undefined };
  try {
    return { body: JSON.parse(text) };
  } catch {
    return { bad: true };
  }
};

/** Checks a request like the server does: 401 without credentials, 400/422 for bad input. */
export const parseRequest = async (
  route: AppRoute,
  request: Request,
  params: Record<string, unknown>,
  defaultWorkspaceId: string,
): Promise<{ ok: true; req: ParsedRequest } | { ok: false; reply: MockReply }> => {
  const meta = (route.metadata ?? {}) as RouteMetadata;
  const h = request.headers;
  // a signed URL stands in for credentials; the route checks its signature
  const signed = meta.binary?.signedAccess === true && new URL(request.url).searchParams.has('signature');
  if (
    !meta.public &&
    !signed &&
    !h.get('authorization') &&
    !h.get('x-api-key') &&
    !h.get('x-service-api-key')
  ) {
    return { ok: false, reply: { status: 401, body: { detail: 'Send a bearer token or an API key.' } } };
  }
  const read = await readBody(route, request);
  if ('bad' in read)
    return { ok: false, reply: { status: 400, body: { detail: 'The body is not valid JSON.' } } };
  const errors: Array<{ path: string; message: string }> = [];
  const parse = (where: string, schema: unknown, value: unknown) => {
    if (!isSchema(schema)) return value;
    const result = schema.safeParse(value);
    if (result.success) return result.data;
    errors.push(...fieldErrors(where, result.error));
    return value;
  };
  const req: ParsedRequest = {
    request,
    params: parse('params', route.pathParams, params) as Record<string, string>,
    query: parse(
      'query',
      'query' in route ? route.query : undefined,
      queryObject(new URL(request.url)),
    ) as Record<string, unknown>,
    body: parse('body', 'body' in route ? route.body : undefined, read.body),
    workspaceId: h.get('x-workspace-id') ?? defaultWorkspaceId,
  };
  return errors.length > 0
    ? {
        ok: false,
        reply: { status: 422, body: { detail: 'The request does not match the API schema.', errors } },
      }
    : { ok: true, req };
};
