import type { Tokens } from '../internal/auth.js';
import type { Fetch } from '../internal/http.js';
import type { Logger, LogLevel } from './logger.js';

export type { Tokens } from '../internal/auth.js';
export type { Fetch } from '../internal/http.js';

/**
 * Options of `new VoiceEval(...)`. Authenticate with one of: `apiKey`; `accessToken` (+
 * `refreshToken`); or `email` + `password` (logs in on the first request).
 */
export interface ClientOptions {
  /** API origin, without `/api/v1`. @default process.env.VOICE_EVAL_BASE_URL */
  baseUrl?: string;
  /** Organization API key, sent as `X-API-Key`. @default process.env.VOICE_EVAL_API_KEY (when no other credentials are given) */
  apiKey?: string;
  /** Bearer access token of a session. */
  accessToken?: string;
  /** Refresh token; on a 401 the client refreshes once (single-flight) and re-sends. */
  refreshToken?: string;
  /** E-mail for password login, done lazily before the first authenticated request. */
  email?: string;
  /** Password for `email`. */
  password?: string;
  /** Organization to log in to when the user has several memberships. */
  organizationId?: string;
  /** Called with every new session (login or refresh) so tokens can be persisted. */
  onTokens?: (tokens: Tokens) => void | Promise<void>;
  /** Workspace to act in (`X-Workspace-Id`). @default the organization's default workspace */
  workspaceId?: string;
  /** Retries after the first attempt, for network errors, timeouts, 408, 409, 429 and 5xx. @default 2 */
  maxRetries?: number;
  /** Per-attempt timeout in milliseconds. @default 60000 */
  timeout?: number;
  /** The `fetch` to use, looked up on every request. @default globalThis.fetch */
  fetch?: Fetch;
  /** Where logs go. @default stderr (Node), nowhere elsewhere */
  logger?: Logger;
  /** Least severe level logged. @default process.env.VOICE_EVAL_LOG, else 'warn' */
  logLevel?: LogLevel;
  /** Headers added to every request. @default {} */
  defaultHeaders?: Record<string, string>;
  /**
   * Check success responses against the contract (`ResponseValidationError` on a mismatch). By
   * default a value this SDK does not know yet (a newer server's enum value or union kind) passes
   * through unchanged and any other mismatch throws; `true` makes every mismatch throw, `false`
   * turns the check off. @default tolerant (see "Forward compatibility" in the README)
   */
  validateResponses?: boolean;
}

/** Per-call options, accepted as the last argument of every method. */
export interface RequestOptions {
  /** Aborts the call (and its retries) with `UserAbortError`. */
  signal?: AbortSignal;
  /** Per-attempt timeout in milliseconds. @default the client's `timeout` */
  timeout?: number;
  /** Retries for this call. @default the client's `maxRetries` */
  maxRetries?: number;
  /**
   * Idempotency key for POST/PATCH; reused on every retry. `null` sends none, and the call is
   * then never retried. @default a new UUID per call (authenticated POST/PATCH only)
   */
  idempotencyKey?: string | null;
  /** Workspace for this call only. @default the client's `workspaceId` */
  workspaceId?: string;
  /** Extra headers for this call. */
  headers?: Record<string, string>;
}
