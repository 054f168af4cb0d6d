/**
 * The transport: the only module that imports ky. One call sends one logical request (with
 * retries), reads the body, turns error statuses into `ApiError`s and validates successes
 * against the contract's schema for the status.
 */
import ky, { HTTPError, TimeoutError as KyTimeoutError } from 'ky';
import {
  ApiError,
  ConnectionError,
  ResponseValidationError,
  TimeoutError,
  UserAbortError,
  VoiceEvalError,
} from '../core/errors.js';
import { type Logger, redactHeaders } from '../core/logger.js';
import { backoffMs, retryAfterMs, shouldRetryStatus } from './retry.js';

/** A `fetch`-compatible function. */
export type Fetch = (input: Request | URL | string, init?: RequestInit) => Promise<Response>;

/** Client-wide transport settings. */
export interface HttpSettings {
  /** Resolved on every attempt, so MSW and other interceptors installed later still apply. */
  fetch: Fetch | undefined;
  logger: Logger;
}

/** One logical request. */
export interface SendRequest {
  method: string;
  url: string;
  headers: Record<string, string>;
  body?: string | FormData;
  /** The route's response schemas by status (zod schemas, or ts-rest markers for no body). */
  responses: Record<number, unknown>;
  signal?: AbortSignal;
  /** Per-attempt timeout in milliseconds. */
  timeout: number;
  maxRetries: number;
  /** POST and PATCH are retried only when this is set (an Idempotency-Key is sent). */
  retryMutations: boolean;
  /** `strict`: any mismatch throws; `tolerant`: values this SDK does not know yet pass; `off`. */
  validate: 'strict' | 'tolerant' | 'off';
  /** A response of bytes (a recording): a success is returned with its body unread, as `data`. */
  binary?: boolean;
}

/** A successful, validated response. */
export interface SendResult {
  status: number;
  data: unknown;
  response: Response;
  requestId: string | undefined;
}

const IDEMPOTENT_METHODS = ['get', 'put', 'head', 'delete', 'options', 'trace'];
const ALL_METHODS = [...IDEMPOTENT_METHODS, 'post', 'patch'];

type Schema = {
  safeParse(value: unknown):
    | { success: true; data: unknown }
    | {
        success: false;
        error: { issues: Array<{ code: string; path: (string | number)[]; message: string }> };
      };
};
const isSchema = (value: unknown): value is Schema =>
  typeof (value as Partial<Schema> | undefined)?.safeParse === 'function';

/** How long to wait before retry `attempt`, or undefined when the failure is final. */
const retryDelay = (error: unknown, attempt: number, signal: AbortSignal | undefined): number | undefined => {
  if (signal?.aborted) return undefined;
  if (error instanceof HTTPError) {
    const { status, headers } = error.response;
    if (!shouldRetryStatus(status, headers)) return undefined;
    // The failed response is dropped: release its body.
    void error.response.body?.cancel().catch(() => undefined);
    return retryAfterMs(headers) ?? backoffMs(attempt);
  }
  // Timeouts and network failures (fetch rejects with a TypeError) are retried.
  if (error instanceof KyTimeoutError || error instanceof TypeError) return backoffMs(attempt);
  return undefined;
};

const transportError = (error: unknown, req: SendRequest): VoiceEvalError => {
  if (error instanceof VoiceEvalError) return error;
  if (req.signal?.aborted) return new UserAbortError(undefined, { cause: req.signal.reason ?? error });
  if (error instanceof KyTimeoutError) {
    return new TimeoutError(`Request timed out after ${req.timeout} ms.`, { cause: error });
  }
  const reason = error instanceof Error ? error.message : String(error);
  return new ConnectionError(`Connection error: ${reason}`, { cause: error });
};

const readBody = async (response: Response, method: string): Promise<unknown> => {
  if (method === 'HEAD' || response.status === 204 || response.status === 205) {
    await response.body?.cancel().catch(() => undefined);
    return undefined;
  }
  const text = await response.text();
  if (text === '') return undefined;
  const type = response.headers.get('content-type') ?? '';
  if (!/[/+]json\b/i.test(type)) return text;
  try {
    return JSON.parse(text);
  } catch {
    if (!response.ok) return text;
    throw new ResponseValidationError('The response body is not valid JSON.', {
      status: response.status,
      requestId: response.headers.get('x-request-id') ?? undefined,
      body: text,
    });
  }
};

/**
 * What a newer server may add without breaking this SDK: a value of an enum, or a kind of a
 * discriminated union, that this SDK does not know yet. Unknown fields are dropped by the parse.
 */
const NEWER_SERVER_ISSUES = new Set(['invalid_enum_value', 'invalid_union_discriminator', 'invalid_literal']);

const validateBody = (req: SendRequest, status: number, body: unknown, requestId?: string): unknown => {
  if (req.validate === 'off') return body;
  if (!(status in req.responses)) {
    throw new ResponseValidationError(
      `${req.method} ${req.url} answered ${status}, which the contract does not declare.`,
      {
        status,
        requestId,
        body,
      },
    );
  }
  const schema = req.responses[status];
  if (!isSchema(schema)) return body;
  const result = schema.safeParse(body);
  if (result.success) return result.data;
  // a newer server's additions: the body as sent, rather than a failed call
  if (req.validate === 'tolerant' && result.error.issues.every((i) => NEWER_SERVER_ISSUES.has(i.code)))
    return body;
  const issues = result.error.issues.map((i) => ({ path: i.path.join('.'), message: i.message }));
  throw new ResponseValidationError(
    `The ${status} response of ${req.method} ${req.url} does not match the contract: ${issues
      .slice(0, 3)
      .map((i) => `${i.path || '(root)'}: ${i.message}`)
      .join('; ')}`,
    { status, requestId, issues, body },
  );
};

/** Sends a request with retries and returns its validated body, or throws a `VoiceEvalError`. */
export const send = async (settings: HttpSettings, req: SendRequest): Promise<SendResult> => {
  const { logger } = settings;
  const started = Date.now();
  let nextDelay = 0;
  logger.debug('request', { method: req.method, url: req.url, headers: redactHeaders(req.headers) });
  let response: Response;
  try {
    response = await ky(req.url, {
      method: req.method,
      headers: req.headers,
      body: req.body,
      signal: req.signal,
      timeout: req.timeout,
      throwHttpErrors: true,
      fetch: (input, init) => (settings.fetch ?? globalThis.fetch)(input, init),
      retry: {
        limit: req.maxRetries,
        methods: req.retryMutations ? ALL_METHODS : IDEMPOTENT_METHODS,
        backoffLimit: Number.POSITIVE_INFINITY,
        delay: () => nextDelay,
        shouldRetry: ({ error, retryCount }) => {
          const delay = retryDelay(error, retryCount, req.signal);
          if (delay === undefined) return false;
          nextDelay = delay;
          const reason = error instanceof HTTPError ? error.response.status : error.name;
          logger.info('retrying', {
            method: req.method,
            url: req.url,
            attempt: retryCount,
            delayMs: Math.round(delay),
            reason,
          });
          return true;
        },
      },
    });
  } catch (error) {
    if (!(error instanceof HTTPError)) throw transportError(error, req);
    response = error.response;
  }
  const requestId = response.headers.get('x-request-id') ?? undefined;
  if (req.binary && response.ok) {
    // the status is checked as for JSON; the body is the caller's to read
    try {
      validateBody(req, response.status, undefined, requestId);
    } catch (error) {
      await response.body?.cancel().catch(() => undefined);
      throw error;
    }
    logger.debug('response', { method: req.method, url: req.url, status: response.status, requestId });
    return { status: response.status, data: response, response, requestId };
  }
  let body: unknown;
  try {
    body = await readBody(response, req.method);
  } catch (error) {
    throw transportError(error, req);
  }
  logger.debug('response', {
    method: req.method,
    url: req.url,
    status: response.status,
    requestId,
    ms: Date.now() - started,
  });
  if (response.headers.has('deprecation')) {
    logger.warn('deprecated endpoint', {
      method: req.method,
      url: req.url,
      link: response.headers.get('link'),
    });
  }
  if (!response.ok) throw ApiError.generate(response.status, body, response.headers);
  return {
    status: response.status,
    data: validateBody(req, response.status, body, requestId),
    response,
    requestId,
  };
};
