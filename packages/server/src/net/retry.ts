/**
 * The server's one retry policy: when a failed HTTP request is worth another attempt and how long
 * to wait first. Model providers' calls use all of it; webhook redelivery uses its backoff with its
 * own base and cap (minutes to hours, since redelivery is durable). The SDK follows the same
 * rules on the client side (docs/decisions.md, "Retries").
 */

/** Exponential backoff: the first pause, doubled per retry, capped. */
export interface Backoff {
  /** The first backoff, doubled per retry, in milliseconds. @default 500 */
  baseDelayMs: number;
  /** The longest backoff, in milliseconds. @default 8000 */
  maxDelayMs: number;
}

/** Retry settings. */
export interface RetryPolicy extends Backoff {
  /** Retries after the first attempt. @default 2 */
  maxRetries: number;
  /** The longest `Retry-After` obeyed, in milliseconds; a longer hint falls back to the backoff. @default 60000 */
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
 * The backoff before retry number `retry` (1-based): the base doubled per earlier retry, capped,
 * minus up to 25% jitter, so clients that failed together do not retry together.
 */
export function backoffMs(retry: number, backoff: Backoff, random: () => number = Math.random): number {
  const exponential = Math.min(backoff.baseDelayMs * 2 ** Math.min(retry - 1, 40), backoff.maxDelayMs);
  return Math.round(exponential * (1 - random() * 0.25));
}

/**
 * The wait before retry number `retry` (1-based): the server's hint when there is one up to
 * `maxRetryAfterMs` (never shortened by jitter), else the backoff. A longer hint falls back to
 * the backoff too: waiting minutes inside one request helps no caller.
 */
export function retryDelayMs(
  retry: number,
  retryAfterMs: number | null,
  policy: RetryPolicy,
  random: () => number = Math.random,
): number {
  if (retryAfterMs !== null && retryAfterMs <= policy.maxRetryAfterMs) return retryAfterMs;
  return backoffMs(retry, policy, random);
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
