import { isRefusal } from '../net/guarded-fetch.js';
import { isRetryableStatus, parseRetryAfter, type RetryPolicy, retryDelayMs, sleep } from '../net/retry.js';
import type { ProviderLogger } from './logger.js';
import { type ProviderError, providerFailure } from './provider-result.js';
import { scrubSecrets } from './redact.js';

/** Where and how one provider endpoint is called. Holds credentials: never log it. */
export interface TransportConfig {
  provider: string;
  baseUrl: string;
  headers: Readonly<Record<string, string>>;
  /** Strings masked in every logged or returned message. */
  secrets: readonly string[];
  fetch: typeof fetch;
  logger: ProviderLogger;
  retry: RetryPolicy;
  /** Caps each attempt, in milliseconds. */
  timeoutMs: number;
}

/** One logical request; its retries are the transport's business. */
export interface TransportRequest {
  method: 'GET' | 'POST';
  /** Appended to the base URL, e.g. `/chat/completions`. */
  path: string;
  model: string | null;
  json?: unknown;
  form?: FormData;
  /** How a 2xx reply is read: parsed JSON, or the raw bytes (audio). @default 'json' */
  expect?: 'json' | 'bytes';
  timeoutMs?: number;
  signal?: AbortSignal;
}

/**
 * A parsed JSON reply (a `Uint8Array` when bytes were expected), or a typed error with the
 * provider's raw reply (for fallbacks).
 */
export type TransportOutcome =
  | { ok: true; status: number; body: unknown; contentType: string | null; attempts: number }
  | { ok: false; error: ProviderError; bodyText: string | null; attempts: number };

type Attempt =
  | { kind: 'response'; status: number; headers: Headers; text: string; bytes: Uint8Array | null }
  | { kind: 'timeout' }
  | { kind: 'cancelled' }
  | { kind: 'network'; message: string }
  /** The guarded fetch refused the address or a redirect: nothing was sent, and a retry would not help. */
  | { kind: 'refused'; message: string };

const MAX_MESSAGE = 500;

function urlOf(baseUrl: string, path: string): string {
  return `${baseUrl.replace(/\/+$/, '')}${path}`;
}

async function attemptOnce(config: TransportConfig, request: TransportRequest): Promise<Attempt> {
  const timeout = AbortSignal.timeout(request.timeoutMs ?? config.timeoutMs);
  const signal = request.signal ? AbortSignal.any([request.signal, timeout]) : timeout;
  const wantsBytes = request.expect === 'bytes';
  const accept = wantsBytes ? '*/*' : 'application/json';
  const headers: Record<string, string> = { accept, ...config.headers };
  if (request.json !== undefined) headers['content-type'] = 'application/json';
  const body = request.json !== undefined ? JSON.stringify(request.json) : request.form;
  try {
    const response = await config.fetch(urlOf(config.baseUrl, request.path), {
      method: request.method,
      headers,
      body,
      signal,
    });
    const bytes = wantsBytes && response.ok ? new Uint8Array(await response.arrayBuffer()) : null;
    return {
      kind: 'response',
      status: response.status,
      headers: response.headers,
      text: bytes ? '' : await response.text(),
      bytes,
    };
  } catch (error) {
    if (request.signal?.aborted) return { kind: 'cancelled' };
    if (timeout.aborted) return { kind: 'timeout' };
    if (isRefusal(error)) return { kind: 'refused', message: error.message };
    const cause = error instanceof Error && error.cause instanceof Error ? `: ${error.cause.message}` : '';
    return { kind: 'network', message: `${error instanceof Error ? error.message : String(error)}${cause}` };
  }
}

/** The human part of an OpenAI-style error body (`{ error: { message } }` and variants). */
function messageOf(text: string): string {
  try {
    const body = JSON.parse(text) as {
      error?: { message?: unknown } | string;
      message?: unknown;
      detail?: unknown;
    };
    const candidate =
      typeof body.error === 'object' ? body.error?.message : (body.error ?? body.message ?? body.detail);
    if (typeof candidate === 'string' && candidate) return candidate;
  } catch {
    // Not JSON: the raw text is the message.
  }
  return text.trim() || 'empty reply';
}

function failureOf(config: TransportConfig, request: TransportRequest, attempt: Attempt): ProviderError {
  const context = { provider: config.provider, model: request.model };
  const scrub = (text: string) => scrubSecrets(text, config.secrets).slice(0, MAX_MESSAGE);
  switch (attempt.kind) {
    case 'timeout':
      return providerFailure(
        'timeout',
        `no reply within ${request.timeoutMs ?? config.timeoutMs} ms`,
        context,
      ).error;
    case 'cancelled':
      return providerFailure('cancelled', 'the call was cancelled', context).error;
    case 'network':
      return providerFailure('provider_error', `connection failed: ${scrub(attempt.message)}`, context).error;
    case 'refused':
      return providerFailure('provider_error', `refused: ${scrub(attempt.message)}`, context).error;
    case 'response': {
      const message = `HTTP ${attempt.status}: ${scrub(messageOf(attempt.text))}`;
      if (attempt.status !== 429) {
        return providerFailure('provider_error', message, { ...context, status: attempt.status }).error;
      }
      const hint = parseRetryAfter(attempt.headers);
      const retryAfter =
        hint === null ? {} : { retry_after_ms: Math.min(hint, config.retry.maxRetryAfterMs) };
      return providerFailure('rate_limited', message, { ...context, status: 429, ...retryAfter }).error;
    }
  }
}

function parsedBody(
  config: TransportConfig,
  request: TransportRequest,
  text: string,
): ProviderError | { body: unknown } {
  try {
    return { body: JSON.parse(text) as unknown };
  } catch {
    const snippet = scrubSecrets(text, config.secrets).slice(0, 200);
    const context = { provider: config.provider, model: request.model };
    return providerFailure('invalid_provider_response', `reply is not JSON: ${snippet}`, context).error;
  }
}

function isRetryable(attempt: Attempt): attempt is Extract<Attempt, { kind: 'response' | 'network' }> {
  return attempt.kind === 'network' || (attempt.kind === 'response' && isRetryableStatus(attempt.status));
}

/**
 * Sends a request with per-attempt timeouts and bounded retries on connection failures, 408,
 * 409, 429 and 5xx, honouring `Retry-After`. Timeouts are not retried: a model too slow once is
 * usually too slow again, and each attempt may be billed.
 */
export async function sendRequest(
  config: TransportConfig,
  request: TransportRequest,
): Promise<TransportOutcome> {
  const log = { provider: config.provider, model: request.model, method: request.method, path: request.path };
  for (let attempt = 1; ; attempt += 1) {
    config.logger.debug({ ...log, attempt }, 'ai:request');
    const started = Date.now();
    const result = await attemptOnce(config, request);
    const status = result.kind === 'response' ? result.status : null;
    config.logger.debug(
      { ...log, attempt, status, outcome: result.kind, duration_ms: Date.now() - started },
      'ai:response',
    );
    if (result.kind === 'response' && result.status >= 200 && result.status < 300) {
      const contentType = result.headers.get('content-type');
      const reply = { ok: true as const, status: result.status, contentType, attempts: attempt };
      if (result.bytes) return { ...reply, body: result.bytes };
      const parsed = parsedBody(config, request, result.text);
      if ('body' in parsed) return { ...reply, body: parsed.body };
      config.logger.warn({ ...log, code: parsed.code, message: parsed.message }, 'ai:failed');
      return { ok: false, error: parsed, bodyText: null, attempts: attempt };
    }
    if (!isRetryable(result) || attempt > config.retry.maxRetries) {
      const error = failureOf(config, request, result);
      config.logger.warn({ ...log, attempt, code: error.code, status, message: error.message }, 'ai:failed');
      return {
        ok: false,
        error,
        bodyText: result.kind === 'response' ? result.text : null,
        attempts: attempt,
      };
    }
    const hint = result.kind === 'response' ? parseRetryAfter(result.headers) : null;
    const delay = retryDelayMs(attempt, hint, config.retry);
    config.logger.warn({ ...log, attempt, status, retry_after_ms: hint, delay_ms: delay }, 'ai:retry');
    await sleep(delay, request.signal);
    if (request.signal?.aborted) {
      return {
        ok: false,
        error: failureOf(config, request, { kind: 'cancelled' }),
        bodyText: null,
        attempts: attempt,
      };
    }
  }
}
