import { ConnectionError, InternalServerError, RateLimitError } from '@voice-eval/sdk';
import { describe, expect, it } from 'vitest';
import { listAgentNames } from '../src/qa-report.js';
import { useVoiceEvalMocks } from './mock-api.js';

const { api, server, client } = useVoiceEvalMocks();

describe('retries', () => {
  it('rate limits: the default two retries ride out two 429s (Retry-After: 0 keeps it fast)', async () => {
    api.db.agents.create(api.fixtures.agent({ name: 'Ava' }));
    server.use(api.scenarios.rateLimited({ retryAfter: 0, times: 2 }));
    await expect(listAgentNames(client())).resolves.toEqual(['Ava']);
  });

  it('rate limits: with maxRetries 0 the first 429 surfaces as RateLimitError', async () => {
    server.use(api.scenarios.rateLimited({ retryAfter: 0, times: 1 }));
    const error = await listAgentNames(client({ maxRetries: 0 })).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RateLimitError);
    expect(error).toMatchObject({ status: 429, retryAfter: 0, requestId: expect.any(String) });
    // the scenario answered once: the next call reaches the normal handlers
    await expect(listAgentNames(client({ maxRetries: 0 }))).resolves.toEqual([]);
  });

  it('flaky 503s: succeed after retries, fail when retries run out', async () => {
    api.db.agents.create(api.fixtures.agent({ name: 'Ava' }));
    server.use(api.scenarios.flaky({ failTimes: 2, status: 503 }));
    await expect(listAgentNames(client())).resolves.toEqual(['Ava']);
    server.use(api.scenarios.flaky({ failTimes: 2, status: 503 }));
    await expect(listAgentNames(client({ maxRetries: 1 }))).rejects.toBeInstanceOf(InternalServerError);
  });

  it('dropped connections are retried too, and surface as ConnectionError without retries', async () => {
    api.db.agents.create(api.fixtures.agent({ name: 'Ava' }));
    server.use(api.scenarios.flaky({ failTimes: 1, status: 'network' }));
    await expect(listAgentNames(client())).resolves.toEqual(['Ava']);
    server.use(api.scenarios.flaky({ failTimes: 1, status: 'network' }));
    await expect(listAgentNames(client({ maxRetries: 0 }))).rejects.toBeInstanceOf(ConnectionError);
  });
});
