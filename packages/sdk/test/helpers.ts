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

/**
 * A runnable suite made through the SDK, as an application would: an agent with an
 * `openai_chat` connection, `personas` x `scenarios` combinations and `metrics` metrics.
 */
export const createRunnableSuite = async (
  client: VoiceEval,
  { personas = 2, scenarios = 2, metrics = 2, runsPerCombination = 1 } = {},
) => {
  const connection = { kind: 'openai_chat' as const, base_url: 'https://agent.example.test/v1', model: 'm' };
  const agent = await client.agents.create({
    name: 'Desk',
    call_type: 'inbound',
    call_medium: 'web',
    connection,
  });
  // One request at a time: the mock's ids follow the order requests arrive in.
  const many = async <T>(n: number, make: (i: number) => Promise<T>) => {
    const out: T[] = [];
    for (let i = 0; i < n; i += 1) out.push(await make(i));
    return out;
  };
  const personaIds = await many(personas, (i) =>
    client.personas
      .create({ name: `Caller ${i + 1}`, tts_provider: 'openai', tts_voice_id: 'alloy' })
      .then((p) => p.id),
  );
  // Named in reverse so the suite's scenario-name order differs from creation order.
  const scenarioIds = await many(scenarios, (i) =>
    client.scenarios.create({ name: `Scenario ${String.fromCharCode(90 - i)}` }).then((s) => s.id),
  );
  const metricIds = await many(metrics, (i) =>
    client.metrics.create({ name: `Metric ${i + 1}` }).then((m) => m.id),
  );
  const suite = await client.evaluatorSuites.create({
    agent_id: agent.id,
    name: 'Front desk regression',
    persona_ids: personaIds,
    scenario_ids: scenarioIds,
    metric_ids: metricIds,
    default_runs_per_combination: runsPerCombination,
  });
  return { agent, suite, personaIds, scenarioIds, metricIds };
};
