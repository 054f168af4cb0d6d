import { describe, expect, it } from 'vitest';
import { backoffMs, retryAfterMs, retryAfterSeconds, shouldRetryStatus } from './retry.js';

const headers = (init: Record<string, string>) => new Headers(init);

describe('backoffMs', () => {
  it('starts at 0.5 s, doubles, caps at 8 s and jitters down by at most 25%', () => {
    const expected = [500, 1000, 2000, 4000, 8000, 8000, 8000];
    expected.forEach((base, i) => {
      for (let k = 0; k < 50; k++) {
        const ms = backoffMs(i + 1);
        expect(ms).toBeGreaterThanOrEqual(base * 0.75);
        expect(ms).toBeLessThanOrEqual(base);
      }
    });
  });
});

describe('retryAfterMs', () => {
  it('prefers retry-after-ms, then Retry-After in seconds or as a date', () => {
    expect(retryAfterMs(headers({ 'retry-after-ms': '250', 'retry-after': '9' }))).toBe(250);
    expect(retryAfterMs(headers({ 'retry-after': '3' }))).toBe(3000);
    const date = new Date(Date.now() + 5_000).toUTCString();
    const ms = retryAfterMs(headers({ 'retry-after': date }))!;
    expect(ms).toBeGreaterThan(3_000);
    expect(ms).toBeLessThanOrEqual(5_000);
    expect(retryAfterMs(headers({ 'retry-after': new Date(Date.now() - 5_000).toUTCString() }))).toBe(0);
  });

  it('ignores hints that are absent, unparsable, negative or above 60 s', () => {
    expect(retryAfterMs(headers({}))).toBeUndefined();
    expect(retryAfterMs(undefined)).toBeUndefined();
    expect(retryAfterMs(headers({ 'retry-after': 'soon' }))).toBeUndefined();
    expect(retryAfterMs(headers({ 'retry-after': '-1' }))).toBeUndefined();
    expect(retryAfterMs(headers({ 'retry-after': '61' }))).toBeUndefined();
    expect(retryAfterMs(headers({ 'retry-after': '60' }))).toBe(60_000);
  });

  it('retryAfterSeconds reports the hint uncapped, for RateLimitError', () => {
    expect(retryAfterSeconds(headers({ 'retry-after': '120' }))).toBe(120);
    expect(retryAfterSeconds(headers({ 'retry-after-ms': '1500' }))).toBe(1.5);
    expect(retryAfterSeconds(headers({}))).toBeUndefined();
  });
});

describe('shouldRetryStatus', () => {
  it('retries 408, 409, 429 and 5xx only', () => {
    const none = headers({});
    expect([408, 409, 429, 500, 502, 503, 504].every((s) => shouldRetryStatus(s, none))).toBe(true);
    expect([400, 401, 403, 404, 413, 415, 422].some((s) => shouldRetryStatus(s, none))).toBe(false);
  });

  it('obeys x-should-retry', () => {
    expect(shouldRetryStatus(503, headers({ 'x-should-retry': 'false' }))).toBe(false);
    expect(shouldRetryStatus(400, headers({ 'x-should-retry': 'true' }))).toBe(true);
  });
});
