import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  errorReply,
  hashedEmbedding,
  type OpenAiDouble,
  startOpenAiDouble,
} from '../testing/openai-compatible.js';
import { CallBudget } from './call-budget.js';
import { OpenAiCompatibleProvider } from './openai-compatible-provider.js';
import type { UsageEvent } from './types.js';

let double: OpenAiDouble;
const provider = (overrides: Partial<ConstructorParameters<typeof OpenAiCompatibleProvider>[0]> = {}) =>
  new OpenAiCompatibleProvider({
    name: 'openai',
    baseUrl: double.url,
    apiKey: 'sk-embeddings-test-key',
    embeddingsModel: 'text-embedding-3-small',
    retry: { baseDelayMs: 5, maxDelayMs: 20, maxRetries: 0 },
    ...overrides,
  });
const texts = (n: number) =>
  Array.from({ length: n }, (_, i) => `flagged row number ${i} missed the readback`);

beforeEach(async () => {
  double = await startOpenAiDouble({
    auth: { header: 'authorization', value: 'Bearer sk-embeddings-test-key' },
  });
});
afterEach(() => double.close());

describe('embed', () => {
  it('posts { model, input[] } to /embeddings and returns the vectors in input order', async () => {
    const events: UsageEvent[] = [];
    const input = texts(3);
    const result = await provider({ onUsage: (event) => void events.push(event) }).embed({ input });

    expect(result).toMatchObject({ ok: true, provider: 'openai', model: 'text-embedding-3-small' });
    if (!result.ok) return;
    expect(result.value.vectors).toEqual(input.map((text) => hashedEmbedding(text)));
    expect(result.value.batches).toBe(1);
    expect(double.requests).toHaveLength(1);
    expect(double.requests[0]).toMatchObject({
      method: 'POST',
      path: '/v1/embeddings',
      json: { model: 'text-embedding-3-small', input, encoding_format: 'float' },
    });
    expect(events).toMatchObject([{ kind: 'embeddings', model: 'text-embedding-3-small', attempts: 1 }]);
    expect(result.usage.prompt_tokens).toBeGreaterThan(0);
  });

  it('orders vectors by the reply index, not by position', async () => {
    double.enqueue('/v1/embeddings', {
      json: {
        data: [
          { object: 'embedding', index: 1, embedding: [0, 1] },
          { object: 'embedding', index: 0, embedding: [1, 0] },
        ],
      },
    });
    const result = await provider().embed({ input: ['first', 'second'] });
    expect(result.ok && result.value.vectors).toEqual([
      [1, 0],
      [0, 1],
    ]);
  });

  it('splits large inputs into batches, each one call of the budget', async () => {
    const budget = new CallBudget(10);
    const input = texts(25);
    const result = await provider({ embeddingsBatchSize: 10 }).embed({ input }, { budget });

    expect(result.ok && result.value.batches).toBe(3);
    expect(double.requests.map((r) => (r.json as { input: string[] }).input.length)).toEqual([10, 10, 5]);
    expect(result.ok && result.value.vectors).toHaveLength(25);
    expect(budget.used).toBe(3);
  });

  it('stops at the budget: no request beyond it, budget_exhausted', async () => {
    const budget = new CallBudget(1);
    const result = await provider({ embeddingsBatchSize: 10 }).embed({ input: texts(25) }, { budget });

    expect(result).toMatchObject({ ok: false, error: { code: 'budget_exhausted' } });
    expect(double.requests).toHaveLength(1);
  });

  it('fails clearly without a model, on a provider error, and on a short reply', async () => {
    expect(await provider({ embeddingsModel: null }).embed({ input: ['x'] })).toMatchObject({
      ok: false,
      error: { code: 'ai_provider_not_configured' },
    });
    expect(double.requests).toHaveLength(0);

    expect(await provider({ embeddingsModel: 'gpt-4o' }).embed({ input: ['x'] })).toMatchObject({
      ok: false,
    });

    double.enqueue('/v1/embeddings', errorReply(401, 'Incorrect API key provided'));
    expect((await provider().embed({ input: ['x'] })).ok).toBe(false);

    double.enqueue('/v1/embeddings', { json: { data: [{ index: 0, embedding: [1] }] } });
    expect(await provider().embed({ input: ['a', 'b'] })).toMatchObject({
      ok: false,
      error: { code: 'invalid_provider_response' },
    });
  });
});
