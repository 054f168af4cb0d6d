import { describe, expectTypeOf, it } from 'vitest';
import {
  type Agent,
  type AgentTestResult,
  type ApiError,
  type ApiPromise,
  type CallImportDetail,
  type Metric,
  type Page,
  type PagePromise,
  type RateLimitError,
  type RequestBody,
  type ResponseBody,
  type SuiteRun,
  type SuiteRunCall,
  type SuiteRunComparison,
  VoiceEval,
} from '../src/index.js';
import { createVoiceEvalMocks } from '../src/msw/index.js';

const client = new VoiceEval({ baseUrl: 'https://api.voice-eval.test', apiKey: 'k' });
const mocks = createVoiceEvalMocks();

describe('client types', () => {
  it('methods return typed promises', () => {
    expectTypeOf(client.metrics.get('id')).toEqualTypeOf<ApiPromise<Metric>>();
    expectTypeOf(client.metrics.get('id')).resolves.toEqualTypeOf<Metric>();
    expectTypeOf(client.metrics.delete('id')).resolves.toBeVoid();
    expectTypeOf(client.callImports.get('id', { row_limit: 10 })).resolves.toEqualTypeOf<CallImportDetail>();
    expectTypeOf(client.metrics.parseBulk).returns.resolves.toEqualTypeOf<
      ResponseBody<'metrics', 'parseBulk'>
    >();
  });

  it('list is a PagePromise of the item type, awaitable to a Page', () => {
    expectTypeOf(client.agents.list()).toEqualTypeOf<PagePromise<Agent>>();
    expectTypeOf(client.agents.list()).resolves.toEqualTypeOf<Page<Agent>>();
    expectTypeOf<Awaited<ReturnType<PagePromise<Agent>['toArray']>>>().toEqualTypeOf<Agent[]>();
  });

  it('bodies and queries are the contract inputs', () => {
    expectTypeOf<RequestBody<'metrics', 'create'>['name']>().toEqualTypeOf<string>();
    // @ts-expect-error name is required
    client.metrics.create({ description: 'x' });
    // @ts-expect-error unknown list filter value
    client.agents.list({ call_type: 'sideways' });
    client.agents.list({ page: 2, page_size: 50, q: 'desk' });
    client.callImports.transcribe('id', { mode: 'llm_only' });
  });

  it('suite runs and agent tests are typed from the contract', () => {
    expectTypeOf(client.suiteRuns.create('suite')).resolves.toEqualTypeOf<SuiteRun>();
    expectTypeOf(client.suiteRuns.create('suite', { calls: 3 })).resolves.toEqualTypeOf<SuiteRun>();
    expectTypeOf(client.suiteRuns.waitFor('run')).toEqualTypeOf<Promise<SuiteRun>>();
    expectTypeOf(client.suiteRuns.listCalls('run')).toEqualTypeOf<PagePromise<SuiteRunCall>>();
    expectTypeOf(client.suiteRuns.list()).toEqualTypeOf<PagePromise<SuiteRun>>();
    expectTypeOf(
      client.suiteRuns.compare('run', { baseline_run_id: 'b' }),
    ).resolves.toEqualTypeOf<SuiteRunComparison>();
    expectTypeOf(client.agents.test('agent')).resolves.toEqualTypeOf<AgentTestResult>();
    client.suiteRuns.waitFor('run', { onProgress: (run) => expectTypeOf(run).toEqualTypeOf<SuiteRun>() });
    // @ts-expect-error unknown run status filter
    client.suiteRuns.list({ status: 'paused' });
    // @ts-expect-error calls is a number
    client.suiteRuns.create('suite', { calls: '3' });
  });

  it('withResponse exposes the response and request id', () => {
    expectTypeOf(client.tags.list().withResponse()).resolves.toMatchTypeOf<{
      data: Page<{ id: string; name: string }>;
      response: Response;
      requestId: string | undefined;
    }>();
  });

  it('errors carry typed fields', () => {
    expectTypeOf<RateLimitError['retryAfter']>().toEqualTypeOf<number | undefined>();
    expectTypeOf<'not_found'>().toMatchTypeOf<NonNullable<ApiError['code']>>();
    expectTypeOf<ApiError['errors']>().toEqualTypeOf<Array<{ path: string; message: string }>>();
  });
});

describe('mock types', () => {
  it('overrides accept declared statuses and matching bodies only', () => {
    const metric = mocks.fixtures.metric();
    expectTypeOf(metric).toEqualTypeOf<Metric>();
    mocks.mocks.metrics.get(metric);
    mocks.mocks.metrics.get(() => ({ status: 200, body: metric }));
    mocks.mocks.metrics.get(() => ({ status: 404, body: { detail: 'gone' } }));
    mocks.mocks.metrics.get(() => ({ status: 404 }));
    // @ts-expect-error 201 is not a status of metrics.get
    mocks.mocks.metrics.get(() => ({ status: 201, body: metric }));
    // @ts-expect-error the body must be a Metric
    mocks.mocks.metrics.get(() => ({ status: 200, body: { name: 'x' } }));
    // @ts-expect-error an unknown error code
    mocks.mocks.metrics.get.error(404, { code: 'gone' });
    mocks.mocks.metrics.delete();
    const run = mocks.fixtures.suiteRun();
    mocks.mocks.suiteRuns.create(() => ({ status: 202, body: run }));
    // @ts-expect-error suiteRuns.create answers 202, not 201
    mocks.mocks.suiteRuns.create(() => ({ status: 201, body: run }));
    mocks.mocks.suiteRuns.compare(mocks.fixtures.suiteRunComparison({ regressed: true }));
    // @ts-expect-error a comparison is not a run
    mocks.mocks.suiteRuns.compare(() => ({ status: 200, body: run }));
    mocks.mocks.suiteRuns.cancel.error(409);
  });
});
