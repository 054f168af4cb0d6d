import { describe, expect, it } from 'vitest';
import {
  backoffMs,
  DEFAULT_RETRY_POLICY,
  isRetryableStatus,
  parseRetryAfter,
  retryDelayMs,
} from './retry.js';

const headers = (init: Record<string, string>) => new Headers(init);

describe('parseRetryAfter', () => {
  const now = Date.parse('2025-01-01T00:00:00Z');

  it('reads seconds, HTTP dates and retry-after-ms', () => {
    expect(parseRetryAfter(headers({ 'retry-after': '2' }), now)).toBe(2000);
    expect(parseRetryAfter(headers({ 'retry-after': '0.5' }), now)).toBe(500);
    expect(parseRetryAfter(headers({ 'retry-after': 'Wed, 01 Jan 2025 00:00:03 GMT' }), now)).toBe(3000);
    expect(parseRetryAfter(headers({ 'retry-after': 'Tue, 31 Dec 2024 23:59:00 GMT' }), now)).toBe(0);
    expect(parseRetryAfter(headers({ 'retry-after-ms': '250', 'retry-after': '9' }), now)).toBe(250);
  });

  it('ignores missing and invalid hints', () => {
    expect(parseRetryAfter(headers({}), now)).toBeNull();
    expect(parseRetryAfter(headers({ 'retry-after': 'soon' }), now)).toBeNull();
    expect(parseRetryAfter(headers({ 'retry-after': '-3' }), now)).toBeNull();
  });
});

describe('retryDelayMs', () => {
  it('obeys a hint up to 60 s, without jitter; a longer one falls back to the backoff', () => {
    expect(retryDelayMs(1, 1500, DEFAULT_RETRY_POLICY, () => 1)).toBe(1500);
    expect(retryDelayMs(1, 60_000, DEFAULT_RETRY_POLICY, () => 1)).toBe(60_000);
    expect(retryDelayMs(1, 3_600_000, DEFAULT_RETRY_POLICY, () => 0)).toBe(500);
  });

  it('shares its backoff with other bases and caps (webhook redelivery: 1 min to 5 h)', () => {
    const redelivery = { baseDelayMs: 60_000, maxDelayMs: 5 * 3_600_000 };
    expect(backoffMs(1, redelivery, () => 0)).toBe(60_000);
    expect(backoffMs(3, redelivery, () => 1)).toBe(180_000);
    expect(backoffMs(12, redelivery, () => 0)).toBe(5 * 3_600_000);
    expect(backoffMs(10_000, redelivery, () => 0)).toBe(5 * 3_600_000);
  });

  it('backs off exponentially with at most 25% jitter, capped', () => {
    expect(retryDelayMs(1, null, DEFAULT_RETRY_POLICY, () => 0)).toBe(500);
    expect(retryDelayMs(2, null, DEFAULT_RETRY_POLICY, () => 0)).toBe(1000);
    expect(retryDelayMs(2, null, DEFAULT_RETRY_POLICY, () => 1)).toBe(750);
    expect(retryDelayMs(10, null, DEFAULT_RETRY_POLICY, () => 0)).toBe(8000);
  });

  it('retries 408, 409, 429 and 5xx only', () => {
    expect([400, 401, 404, 408, 409, 422, 429, 500, 503, 529].filter(isRetryableStatus)).toEqual([
      408, 409, 429, 500, 503, 529,
    ]);
  });
});
