import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { chatReply, errorReply, type OpenAiDouble, startOpenAiDouble } from '../testing/openai-compatible.js';
import { CallBudget } from './call-budget.js';
import { OpenAiCompatibleProvider } from './openai-compatible-provider.js';

const request = {
  system: 'Answer in JSON.',
  user: 'ok?',
  schema: z.object({ ok: z.boolean() }),
  schemaName: 'ok',
};
const FAST_RETRY = { baseDelayMs: 5, maxDelayMs: 20 };

let double: OpenAiDouble;
const provider = (overrides: Partial<ConstructorParameters<typeof OpenAiCompatibleProvider>[0]> = {}) =>
  new OpenAiCompatibleProvider({
    name: 'openai',
    baseUrl: double.url,
    chatModel: 'gpt-4o-mini',
    retry: FAST_RETRY,
    ...overrides,
  });

beforeEach(async () => {
  double = await startOpenAiDouble();
});
afterEach(() => double.close());

describe('retries', () => {
  it('retries a 429 after the Retry-After the provider asked for, then succeeds', async () => {
    double.enqueue(
      '/v1/chat/completions',
      errorReply(429, 'slow down', { 'retry-after': '1' }),
      chatReply({ ok: true }),
    );
    const result = await provider().chat(request);

    expect(result).toMatchObject({ ok: true, value: { data: { ok: true } } });
    expect(double.requests).toHaveLength(2);
    const [first, second] = double.requests;
    expect(second!.at - first!.at).toBeGreaterThanOrEqual(1000);
  });

  it('honours Retry-After given as an HTTP date', async () => {
    // HTTP dates have one-second resolution: pick a whole second 0.5 to 1.5 s ahead.
    const until = Math.ceil((Date.now() + 500) / 1000) * 1000;
    const hint = { 'retry-after': new Date(until).toUTCString() };
    double.enqueue('/v1/chat/completions', errorReply(429, 'slow down', hint), chatReply({ ok: true }));
    const result = await provider().chat(request);
    expect(result.ok).toBe(true);
    expect(double.requests).toHaveLength(2);
    expect(Date.now()).toBeGreaterThanOrEqual(until);
  });

  it('retries 5xx with backoff and gives up after maxRetries with provider_error', async () => {
    double.enqueue(
      '/v1/chat/completions',
      errorReply(502, 'bad gateway'),
      errorReply(503, 'busy'),
      errorReply(500, 'boom'),
    );
    const result = await provider({ retry: { ...FAST_RETRY, maxRetries: 2 } }).chat(request);
    expect(result).toMatchObject({ ok: false, error: { code: 'provider_error', status: 500 } });
    expect(double.requests).toHaveLength(3);
  });

  it('returns rate_limited with the hint when 429s outlast the retries', async () => {
    double.enqueue(
      '/v1/chat/completions',
      errorReply(429, 'quota', { 'retry-after': '0' }),
      errorReply(429, 'quota', { 'retry-after': '0' }),
    );
    const result = await provider({ retry: { ...FAST_RETRY, maxRetries: 1 } }).chat(request);
    expect(result).toMatchObject({
      ok: false,
      error: { code: 'rate_limited', status: 429, retry_after_ms: 0 },
    });
    expect(double.requests).toHaveLength(2);
  });

  it('does not retry a 4xx other than 408, 409 and 429', async () => {
    double.enqueue('/v1/chat/completions', errorReply(404, 'no such model'));
    const result = await provider().chat(request);
    expect(result).toMatchObject({ ok: false, error: { code: 'provider_error', status: 404 } });
    expect(double.requests).toHaveLength(1);
  });
});

describe('timeouts and cancellation', () => {
  it('returns timeout when the provider is slower than the timeout, without retrying', async () => {
    double.setLatency(1_000);
    const result = await provider({ timeoutMs: 100 }).chat(request);
    expect(result).toMatchObject({
      ok: false,
      error: { code: 'timeout', provider: 'openai', model: 'gpt-4o-mini' },
    });
    expect(double.requests).toHaveLength(1);
  });

  it('a per-call timeout overrides the provider default', async () => {
    double.setLatency(1_000);
    const result = await provider({ timeoutMs: 60_000 }).chat(request, { timeoutMs: 100 });
    expect(result).toMatchObject({ ok: false, error: { code: 'timeout' } });
  });

  it('returns cancelled when the caller aborts', async () => {
    double.setLatency(1_000);
    const controller = new AbortController();
    const pending = provider().chat(request, { signal: controller.signal });
    setTimeout(() => controller.abort(), 50);
    expect(await pending).toMatchObject({ ok: false, error: { code: 'cancelled' } });
  });

  it('returns provider_error when nothing listens', async () => {
    const url = double.url;
    await double.close();
    const result = await provider({ baseUrl: url, retry: { ...FAST_RETRY, maxRetries: 1 } }).chat(request);
    expect(result).toMatchObject({ ok: false, error: { code: 'provider_error' } });
    expect(!result.ok && result.error.message).toMatch(/^connection failed/);
    double = await startOpenAiDouble();
  });
});

describe('call budget', () => {
  it('returns budget_exhausted once the job has used its calls, without calling the provider', async () => {
    const budget = new CallBudget(2);
    const p = provider();
    double.enqueue('/v1/chat/completions', chatReply({ ok: true }));
    expect((await p.chat(request, { budget })).ok).toBe(true);
    // A retried call still counts once.
    double.enqueue('/v1/chat/completions', errorReply(500, 'boom'), chatReply({ ok: true }));
    expect((await p.chat(request, { budget })).ok).toBe(true);
    expect(budget.used).toBe(2);

    const third = await p.chat(request, { budget });
    expect(third).toMatchObject({ ok: false, error: { code: 'budget_exhausted', provider: 'openai' } });
    expect(double.requests).toHaveLength(3);
  });

  it('resumes from a stored counter', async () => {
    const budget = new CallBudget(5, { used: 5 });
    expect(budget.remaining).toBe(0);
    expect(await provider().chat(request, { budget })).toMatchObject({
      ok: false,
      error: { code: 'budget_exhausted' },
    });
    expect(double.requests).toHaveLength(0);
  });
});
