import { VoiceEval } from '@voice-eval/sdk';
import { createVoiceEvalMocks } from '@voice-eval/sdk/msw';
import { setupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll } from 'vitest';

/** The origin the client under test calls; MSW answers it, nothing reaches the network. */
export const BASE_URL = 'https://api.voice-eval.test';

/**
 * The standard MSW setup for a test file: every voice-eval route mocked over an in-memory store,
 * unhandled requests failing the test, overrides and store reset after each test.
 */
export const useVoiceEvalMocks = () => {
  const api = createVoiceEvalMocks({ baseUrl: BASE_URL });
  const server = setupServer(...api.handlers);
  beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
  afterEach(() => {
    server.resetHandlers();
    api.reset();
  });
  afterAll(() => server.close());
  /** A client as the application builds it; `maxRetries` and friends can be changed per test. */
  const client = (options: { maxRetries?: number } = {}) =>
    new VoiceEval({ baseUrl: BASE_URL, apiKey: 've_test_key', logLevel: 'off', ...options });
  return { api, server, client };
};
