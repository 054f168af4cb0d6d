/** Longest server-requested wait the SDK honours; longer hints fall back to backoff. */
const MAX_RETRY_AFTER_MS = 60_000;
const INITIAL_BACKOFF_MS = 500;
const MAX_BACKOFF_MS = 8_000;

/**
 * The wait a response asks for, in milliseconds: `retry-after-ms`, else `Retry-After` (seconds
 * or an HTTP date). Undefined when absent, unparsable, negative or above 60 s.
 */
export const retryAfterMs = (headers: Headers | undefined): number | undefined => {
  const ms = headers ? rawRetryAfterMs(headers) : undefined;
  return ms !== undefined && ms >= 0 && ms <= MAX_RETRY_AFTER_MS ? ms : undefined;
};

/** The server's wait hint in seconds, uncapped (for `RateLimitError.retryAfter`). */
export const retryAfterSeconds = (headers: Headers): number | undefined => {
  const ms = rawRetryAfterMs(headers);
  return ms === undefined ? undefined : Math.max(0, ms) / 1000;
};

const rawRetryAfterMs = (headers: Headers): number | undefined => {
  const ms = headers.get('retry-after-ms');
  if (ms !== null && ms.trim() !== '' && Number.isFinite(Number(ms))) return Number(ms);
  const value = headers.get('retry-after');
  if (value === null || value.trim() === '') return undefined;
  const seconds = Number(value);
  if (Number.isFinite(seconds)) return seconds * 1000;
  // an HTTP date names a weekday and month; one in the past means now
  const date = /[a-z]/i.test(value) ? Date.parse(value) : Number.NaN;
  return Number.isNaN(date) ? undefined : Math.max(0, date - Date.now());
};

/** Exponential backoff for retry `attempt` (1-based): 0.5 s doubling to 8 s, minus up to 25% jitter. */
export const backoffMs = (attempt: number): number => {
  const base = Math.min(INITIAL_BACKOFF_MS * 2 ** (attempt - 1), MAX_BACKOFF_MS);
  return base * (1 - Math.random() * 0.25);
};

/**
 * Whether a response status is worth retrying: 408, 409, 429 and 5xx, unless the server says
 * otherwise with `x-should-retry: true|false`.
 */
export const shouldRetryStatus = (status: number, headers: Headers): boolean => {
  const hint = headers.get('x-should-retry');
  if (hint === 'true') return true;
  if (hint === 'false') return false;
  return status === 408 || status === 409 || status === 429 || status >= 500;
};
