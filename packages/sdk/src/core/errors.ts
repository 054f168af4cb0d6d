import { type ErrorCode, type Problem, ProblemSchema } from '@voice-eval/contract';
import { retryAfterSeconds } from '../internal/retry.js';

/** Base class of every error the SDK throws; `instanceof VoiceEvalError` catches them all. */
export class VoiceEvalError extends Error {
  override readonly name: string = 'VoiceEvalError';
}

/** A field-level problem reported by the API (`path` is dotted, e.g. `body.name`). */
export type FieldError = { path: string; message: string };

/**
 * The API answered with a non-2xx status. `problem` is the RFC 9457 body when it matched the
 * contract; `code`, `detail`, `errors` and `requestId` are read from it.
 */
export class ApiError extends VoiceEvalError {
  override readonly name: string = 'ApiError';
  /** HTTP status of the response. */
  readonly status: number;
  /** Stable machine-readable error code (`not_found`, `validation_failed`, ...). */
  readonly code: ErrorCode | (string & {}) | undefined;
  /** Human-readable explanation of this occurrence. */
  readonly detail: string | undefined;
  /** Field-level problems; empty when none were reported. */
  readonly errors: FieldError[];
  /** The `X-Request-Id` of the response: quote it when reporting a problem. */
  readonly requestId: string | undefined;
  /** The problem body, when it matched the contract's `ProblemSchema`. */
  readonly problem: Problem | undefined;
  /** The response headers. */
  readonly headers: Headers;
  /** The raw response body (parsed JSON, text, or undefined). */
  readonly body: unknown;

  constructor(status: number, body: unknown, headers: Headers) {
    const parsed = ProblemSchema.safeParse(body);
    const problem = parsed.success ? parsed.data : undefined;
    const raw = (typeof body === 'object' && body !== null ? body : {}) as Record<string, unknown>;
    const code = problem?.code ?? (typeof raw.code === 'string' ? raw.code : undefined);
    const detail = problem?.detail ?? (typeof raw.detail === 'string' ? raw.detail : undefined);
    const title = problem?.title ?? (typeof raw.title === 'string' ? raw.title : undefined);
    super(`${status}${code ? ` ${code}` : ''}: ${detail ?? title ?? 'request failed'}`);
    this.status = status;
    this.code = code;
    this.detail = detail;
    this.errors = problem?.errors ?? [];
    this.requestId = headers.get('x-request-id') ?? problem?.request_id ?? undefined;
    this.problem = problem;
    this.headers = headers;
    this.body = body;
  }

  /** Builds the subclass matching `status`: the only place statuses map to error classes. */
  static generate(status: number, body: unknown, headers: Headers): ApiError {
    switch (status) {
      case 400:
        return new BadRequestError(status, body, headers);
      case 401:
        return new AuthenticationError(status, body, headers);
      case 403:
        return new PermissionDeniedError(status, body, headers);
      case 404:
        return new NotFoundError(status, body, headers);
      case 409:
        return new ConflictError(status, body, headers);
      case 422:
        return new UnprocessableEntityError(status, body, headers);
      case 429:
        return new RateLimitError(status, body, headers);
      default:
        return status >= 500
          ? new InternalServerError(status, body, headers)
          : new ApiError(status, body, headers);
    }
  }
}

/** 400: the request was malformed (e.g. invalid JSON). */
export class BadRequestError extends ApiError {
  override readonly name: string = 'BadRequestError';
}
/** 401: credentials are missing, invalid, expired or revoked. */
export class AuthenticationError extends ApiError {
  override readonly name: string = 'AuthenticationError';
}
/** 403: the role is too low, an interactive user is required, or the plan lacks the feature. */
export class PermissionDeniedError extends ApiError {
  override readonly name: string = 'PermissionDeniedError';
}
/** 404: unknown id, or an id of another organization or workspace. */
export class NotFoundError extends ApiError {
  override readonly name: string = 'NotFoundError';
}
/** 409: a uniqueness conflict, a resource still in use, or a concurrent idempotent request. */
export class ConflictError extends ApiError {
  override readonly name: string = 'ConflictError';
}
/** 422: the body, query or path failed validation, or a business rule was broken; see `errors`. */
export class UnprocessableEntityError extends ApiError {
  override readonly name: string = 'UnprocessableEntityError';
}
/** 429: too many requests; `retryAfter` is the server's hint in seconds, when given. */
export class RateLimitError extends ApiError {
  override readonly name: string = 'RateLimitError';
  /** Seconds to wait before retrying, from `retry-after-ms` or `Retry-After`. */
  readonly retryAfter: number | undefined;
  constructor(status: number, body: unknown, headers: Headers) {
    super(status, body, headers);
    this.retryAfter = retryAfterSeconds(headers);
  }
}
/** 5xx: the server failed; it never reveals internals, so quote `requestId`. */
export class InternalServerError extends ApiError {
  override readonly name: string = 'InternalServerError';
}

/** The request never got a response: DNS, refused connection, reset socket. */
export class ConnectionError extends VoiceEvalError {
  override readonly name: string = 'ConnectionError';
  constructor(message = 'Connection error.', options?: { cause?: unknown }) {
    super(message, options);
  }
}
/** An attempt exceeded its `timeout` (after any retries). */
export class TimeoutError extends ConnectionError {
  override readonly name: string = 'TimeoutError';
  constructor(message = 'Request timed out.', options?: { cause?: unknown }) {
    super(message, options);
  }
}
/** The caller's `signal` aborted the request. */
export class UserAbortError extends VoiceEvalError {
  override readonly name: string = 'UserAbortError';
  constructor(message = 'Request was aborted.', options?: { cause?: unknown }) {
    super(message, options);
  }
}

/** A response did not match the contract's schema for its status. */
export class ResponseValidationError extends VoiceEvalError {
  override readonly name: string = 'ResponseValidationError';
  /** HTTP status of the response. */
  readonly status: number;
  /** The `X-Request-Id` of the response. */
  readonly requestId: string | undefined;
  /** What did not match, as `path: message` pairs. */
  readonly issues: FieldError[];
  /** The body as received. */
  readonly body: unknown;
  constructor(
    message: string,
    init: { status: number; requestId?: string; issues?: FieldError[]; body: unknown },
  ) {
    super(message);
    this.status = init.status;
    this.requestId = init.requestId;
    this.issues = init.issues ?? [];
    this.body = init.body;
  }
}

/** A `waitFor...` helper gave up before the work finished; `lastValue` is the last state seen. */
export class PollTimeoutError extends VoiceEvalError {
  override readonly name: string = 'PollTimeoutError';
  /** The last value polled before giving up. */
  readonly lastValue: unknown;
  constructor(message: string, lastValue: unknown) {
    super(message);
    this.lastValue = lastValue;
  }
}
