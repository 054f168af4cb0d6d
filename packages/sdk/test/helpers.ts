import { setupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll } from 'vitest';
import { type ClientOptions, VoiceEval } from '../src/index.js';
import { createVoiceEvalMocks } from '../src/msw/index.js';

export const BASE_URL = 'https://api.voice-eval.test';

/** A mock API for the file's tests: MSW listening, handlers and store reset after each test. */
export const useMockApi = () => {
  const api = createVoiceEvalMocks({ baseUrl: BASE_URL });
  const server = setupServer(...api.handlers);
  beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
  afterEach(() => {
    server.resetHandlers();
    api.reset();
  });
  afterAll(() => server.close());
  const client = (options: ClientOptions = {}) =>
    new VoiceEval({ baseUrl: BASE_URL, apiKey: 'test_key', logLevel: 'off', ...options });
  return { api, server, client };
};

/** Records every request the server sees (method, path, headers), for the few tests that need it. */
export const recordRequests = (server: ReturnType<typeof setupServer>) => {
  const seen: Array<{ method: string; url: URL; headers: Headers }> = [];
  const listener = ({ request }: { request: Request }) => {
    seen.push({ method: request.method, url: new URL(request.url), headers: new Headers(request.headers) });
  };
  server.events.on('request:start', listener);
  afterEach(() => {
    seen.length = 0;
  });
  return seen;
};
