/**
 * When and how long to wait before retrying a provider request: bounded retries on 408, 429
 * and 5xx (and on connection failures), exponential backoff with jitter, and the provider's
 * `retry-after-ms` / `Retry-After` hint (seconds or an HTTP date) obeyed up to a cap.
 */

/** Retry settings. */
export interface RetryPolicy {
  /** Retries after the first attempt. @default 2 */
  maxRetries: number;
  /** The first backoff, doubled per retry, in milliseconds. @default 500 */
  baseDelayMs: number;
  /** The longest backoff, in milliseconds. @default 8000 */
  maxDelayMs: number;
  /** The longest `Retry-After` obeyed; longer hints are capped to it, in milliseconds. @default 60000 */
  maxRetryAfterMs: number;
}

/** The defaults of {@link RetryPolicy}. */
export const DEFAULT_RETRY_POLICY: Readonly<RetryPolicy> = Object.freeze({
  maxRetries: 2,
  baseDelayMs: 500,
  maxDelayMs: 8_000,
  maxRetryAfterMs: 60_000,
});

const RETRYABLE_STATUSES = new Set([408, 409, 429, 500, 502, 503, 504]);

/** Whether a reply with this status is worth another attempt. */
export function isRetryableStatus(status: number): boolean {
  return RETRYABLE_STATUSES.has(status) || status > 504;
}

/**
 * The wait a reply asks for, in milliseconds, or null when it names none (or an invalid one).
 * `retry-after-ms` wins over `Retry-After`; an HTTP date in the past means 0.
 */
export function parseRetryAfter(headers: Headers, now: number = Date.now()): number | null {
  const ms = headers.get('retry-after-ms');
  if (ms !== null && /^\d+(\.\d+)?$/.test(ms.trim())) return Math.ceil(Number(ms));
  const value = headers.get('retry-after')?.trim();
  if (!value) return null;
  if (/^\d+(\.\d+)?$/.test(value)) return Math.ceil(Number(value) * 1000);
  // An HTTP date names a weekday and month; bare numbers such as "-3" are not dates.
  const date = /[a-z]/i.test(value) ? Date.parse(value) : Number.NaN;
  if (Number.isNaN(date)) return null;
  return Math.max(0, date - now);
}

/**
 * The wait before retry number `retry` (1-based): the provider's hint capped at
 * `maxRetryAfterMs` when there is one (never shortened by jitter), else exponential backoff
 * with up to 25% jitter subtracted.
 */
export function retryDelayMs(
  retry: number,
  retryAfterMs: number | null,
  policy: RetryPolicy,
  random: () => number = Math.random,
): number {
  if (retryAfterMs !== null) return Math.min(retryAfterMs, policy.maxRetryAfterMs);
  const backoff = Math.min(policy.baseDelayMs * 2 ** (retry - 1), policy.maxDelayMs);
  return Math.round(backoff * (1 - random() * 0.25));
}

/** Resolves after `ms`, or early (without throwing) when `signal` aborts. */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal?.aborted || ms <= 0) return resolve();
    const done = () => {
      clearTimeout(timer);
      signal?.removeEventListener('abort', done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal?.addEventListener('abort', done, { once: true });
  });
}
