/**
 * @voice-eval/sdk/msw: MSW handlers for every voice-eval route, for tests of code that uses the
 * SDK. Needs `msw` 2 (an optional peer dependency).
 *
 * @example
 * const mocks = createVoiceEvalMocks({ baseUrl: 'https://api.voice-eval.test' });
 * const server = setupServer(...mocks.handlers);
 * server.use(mocks.mocks.metrics.get.error(404));
 */
import type { HttpHandler } from 'msw';
import { crudImpl } from './crud.js';
import { authImpls } from './domain-auth.js';
import { consistencyCheckImpls } from './domain-consistency-checks.js';
import { metricVersionImpls } from './domain-metric-versions.js';
import { metricImpls } from './domain-metrics.js';
import { monitorImpls } from './domain-monitors.js';
import { productionImpls } from './domain-production.js';
import { recordingImpls } from './domain-recordings.js';
import { reviewQueueImpls } from './domain-review-queues.js';
import { simulationImpls } from './domain-simulation.js';
import { voiceBundleImpls } from './domain-voice-bundles.js';
import { webhookImpls } from './domain-webhooks.js';
import { workImpls } from './domain-work.js';
import type { MockEnv, RouteImpl } from './env.js';
import { type Fixtures, MOCK_WORKSPACE_ID } from './fixture-types.js';
import { createFixtures } from './fixtures.js';
import { createRouteMocks, type RouteMocks } from './overrides.js';
import { parseRequest, toHttpResponse } from './respond.js';
import { ROUTES, routeHandler } from './routes.js';
import { Sequence } from './sample.js';
import { createScenarios, type Scenarios } from './scenarios.js';
import { createDb, type MockDb } from './store.js';

/** Options of `createVoiceEvalMocks`. */
export interface VoiceEvalMocksOptions {
  /** Origin the SDK under test calls (its `baseUrl`). @default 'https://api.voice-eval.test' */
  baseUrl?: string;
}

/** A mock API: default handlers over an in-memory store, typed overrides, scenarios and fixtures. */
export interface VoiceEvalMocks {
  /** Happy-path handlers for every route, backed by `db`. Pass them to `setupServer`. */
  handlers: HttpHandler[];
  /** `mocks.<area>.<route>(data | resolver)` and `.error(status)`: typed per-route overrides. */
  mocks: RouteMocks;
  /** Misbehaving handlers for retry tests: `rateLimited`, `flaky`. */
  scenarios: Scenarios;
  /** Deterministic, schema-valid resources: `fixtures.metric({ name: 'Greeting' })`. */
  fixtures: Fixtures;
  /** The in-memory store behind `handlers`, one collection per area. */
  db: MockDb;
  /** Empties the store, restarts ids and timestamps, and re-seeds the default workspace. */
  reset(): void;
}

/** Creates a mock voice-eval API for MSW (`setupServer(...mocks.handlers)`). */
export const createVoiceEvalMocks = (options: VoiceEvalMocksOptions = {}): VoiceEvalMocks => {
  const baseUrl = (options.baseUrl ?? 'https://api.voice-eval.test').replace(/\/$/, '');
  const seq = new Sequence();
  let requests = 0;
  const requestId = () => {
    requests += 1;
    return `req_mock_${requests}`;
  };
  const env: MockEnv = {
    db: createDb(),
    fixtures: createFixtures(seq),
    seq,
    requestId,
    generatedClusterScopes: new Set(),
    signedRecordingUrls: new Map(),
    monitorCalls: [],
    metricVersions: [],
    consistencyChecks: [],
    humanLabels: [],
  };
  const impls: Record<string, RouteImpl> = {
    ...authImpls,
    ...workImpls,
    ...recordingImpls,
    ...simulationImpls,
    ...voiceBundleImpls,
    ...webhookImpls,
    ...productionImpls,
    ...monitorImpls,
    ...metricImpls,
    ...metricVersionImpls,
    ...consistencyCheckImpls,
    ...reviewQueueImpls,
  };

  const handlers = ROUTES.map(({ area, name, route }) => {
    const label = `${area}.${name}`;
    const impl = impls[label] ?? crudImpl(area, name, route);
    return routeHandler(baseUrl, route, async (request, params) => {
      const parsed = await parseRequest(route, request, params, MOCK_WORKSPACE_ID);
      const reply = parsed.ok ? await impl(parsed.req, env) : parsed.reply;
      return toHttpResponse(route, reply, requestId(), label);
    });
  });

  const reset = () => {
    for (const collection of Object.values(env.db)) collection.clear();
    env.generatedClusterScopes.clear();
    env.signedRecordingUrls.clear();
    env.monitorCalls.length = 0;
    env.metricVersions.length = 0;
    env.humanLabels.length = 0;
    seq.reset();
    requests = 0;
    env.db.workspaces.create(env.fixtures.defaultWorkspace());
  };
  reset();

  return {
    handlers,
    mocks: createRouteMocks(baseUrl, requestId),
    scenarios: createScenarios(baseUrl, requestId),
    fixtures: env.fixtures,
    db: env.db,
    reset,
  };
};

export {
  type Fixture,
  type Fixtures,
  MOCK_ORGANIZATION_ID,
  MOCK_USER_ID,
  MOCK_WORKSPACE_ID,
} from './fixture-types.js';
export type {
  MockErrorOptions,
  MockErrorStatus,
  MockResolver,
  MockResolverInfo,
  MockRouteReply,
  MockSuccessBody,
  RouteMock,
  RouteMocks,
} from './overrides.js';
export type { FlakyOptions, RateLimitedOptions, Scenarios } from './scenarios.js';
export { Collection, type MockDb } from './store.js';
