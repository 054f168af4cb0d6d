import { SuiteRunSchema } from '@voice-eval/contract';
import { beforeAll, describe, expect, it } from 'vitest';
import { type AccessRule, describeAccessRules, expectProblem } from '../../../test/access-rules.js';
import { makeRunnableSuite, startRun } from '../../../test/factories/suite-runs.js';
import { createHarness, type Harness } from '../../../test/harness.js';
import { settleRun } from './settle.js';

// no workers: runs stay as created, so what is queued can be read exactly
let h: Harness;
beforeAll(async () => {
  h = await createHarness({ workerConcurrency: 0, fetchAllowlist: ['127.0.0.1'] });
});

const get = async (path: string) => h.request('GET', path, { headers: await h.as('READER') });

describe('POST /evaluator-suites/{id}/runs', () => {
  it('queues every combination runs_per_combination times, with an import row per call', async () => {
    const { suite } = await makeRunnableSuite(h, h, { personas: 2, scenarios: 2 });
    const run = SuiteRunSchema.parse(await startRun(h, h, suite.id, { runs_per_combination: 3 }));
    expect(run).toMatchObject({ status: 'pending', trigger: 'api', calls_total: 12, calls_pending: 12 });
    // no public URL configured: no console link (console-url.http.test.ts has one)
    expect(run.console_url).toBeNull();
    expect(run.combination_ids).toEqual(suite.combinations.map((c) => c.id));
    const calls = (await get(`/api/v1/suite-runs/${run.id}/calls?page_size=100`)).body;
    expect(calls.total).toBe(12);
    expect(new Set(calls.items.map((c: { seed: number }) => c.seed)).size).toBeGreaterThan(1);
    const imported = (await get(`/api/v1/call-imports/${run.call_import_id}?row_limit=100`)).body;
    expect(imported).toMatchObject({ source_format: 'simulation', total_rows: 12, dataset: suite.name });
    const conversations = imported.rows.map((r: { conversation_id: string }) => r.conversation_id).sort();
    expect(conversations).toEqual(
      calls.items.map((c: { conversation_id: string }) => c.conversation_id).sort(),
    );
  });

  it('lists the calls of one persona or one scenario, and refuses an id that is not one', async () => {
    const { suite } = await makeRunnableSuite(h, h, { personas: 2, scenarios: 3 });
    const run = SuiteRunSchema.parse(await startRun(h, h, suite.id));
    const [persona, scenario] = [suite.combinations[0]!.persona_id, suite.combinations[0]!.scenario_id];
    const calls = `/api/v1/suite-runs/${run.id}/calls`;
    const ofPersona = (await get(`${calls}?persona_id=${persona}`)).body;
    expect(ofPersona.total).toBe(3);
    expect(ofPersona.items.every((c: { persona_id: string }) => c.persona_id === persona)).toBe(true);
    expect((await get(`${calls}?scenario_id=${scenario}`)).body.total).toBe(2);
    expect((await get(`${calls}?persona_id=${persona}&scenario_id=${scenario}`)).body.total).toBe(1);
    expectProblem(await get(`${calls}?persona_id=someone`), 422, 'validation_failed');
  });

  it('takes a POST with no body as a run of every combination', async () => {
    const { suite } = await makeRunnableSuite(h, h, { scenarios: 2 });
    const reply = await h.request('POST', `/api/v1/evaluator-suites/${suite.id}/runs`, {
      headers: await h.as('MEMBER'),
    });
    expect(reply.status, JSON.stringify(reply.body)).toBe(202);
    expect(reply.body.calls_total).toBe(2);
  });

  it('runs a subset of combinations', async () => {
    const { suite } = await makeRunnableSuite(h, h, { scenarios: 3 });
    const picked = [suite.combinations[2]!.id, suite.combinations[0]!.id];
    const run = await startRun(h, h, suite.id, { combination_ids: picked });
    expect(run.combination_ids).toEqual(picked);
    expect(run.calls_total).toBe(2);
  });

  it('takes combinations round-robin from the cursor across runs', async () => {
    const { suite } = await makeRunnableSuite(h, h, { scenarios: 5 });
    const order = suite.combinations.map((c) => c.id);
    const taken = [];
    for (let i = 0; i < 3; i++) taken.push(...(await startRun(h, h, suite.id, { calls: 2 })).combination_ids);
    expect(taken).toEqual([...order, order[0]]);
    const after = (await get(`/api/v1/evaluator-suites/${suite.id}`)).body;
    expect(after.round_robin_index).toBe(1);
  });

  it('never hands out a round-robin slot twice under concurrent creates', async () => {
    const { suite } = await makeRunnableSuite(h, h, { scenarios: 5 });
    const runs = await Promise.all(Array.from({ length: 5 }, () => startRun(h, h, suite.id, { calls: 1 })));
    const slots = runs.map((r) => r.combination_ids[0]);
    expect(new Set(slots).size).toBe(5);
    expect((await get(`/api/v1/evaluator-suites/${suite.id}`)).body.round_robin_index).toBe(0);
  });

  it.each([
    [{ calls: 1, combination_ids: ['00000000-0000-4000-8000-000000000000'] }, 'validation_failed'],
    [{ runs_per_combination: 0 }, 'validation_failed'],
    [{ calls: 'two' }, 'validation_failed'],
    [{ surprise: true }, 'validation_failed'],
    [{ combination_ids: ['00000000-0000-4000-8000-000000000000'] }, 'rule_violation'],
  ])('refuses %j with 422 and queues nothing', async (body, code) => {
    const { suite } = await makeRunnableSuite(h, h);
    const reply = await h.request('POST', `/api/v1/evaluator-suites/${suite.id}/runs`, {
      headers: await h.as('MEMBER'),
      body,
    });
    expectProblem(reply, 422, code);
    expect((await get(`/api/v1/suite-runs?suite_id=${suite.id}`)).body.total).toBe(0);
  });

  it('needs an agent connection and metrics', async () => {
    const unconnected = await makeRunnableSuite(h, h, { connection: null });
    const noMetrics = await makeRunnableSuite(h, h, { metrics: [] });
    for (const { suite } of [unconnected, noMetrics]) {
      const reply = await h.request('POST', `/api/v1/evaluator-suites/${suite.id}/runs`, {
        headers: await h.as('MEMBER'),
        body: {},
      });
      expectProblem(reply, 422, 'rule_violation');
    }
  });

  it('refuses a baseline of another suite and a call count over the limit', async () => {
    const a = await makeRunnableSuite(h, h);
    const b = await makeRunnableSuite(h, h);
    const other = await startRun(h, h, b.suite.id);
    const post = async (body: object) =>
      h.request('POST', `/api/v1/evaluator-suites/${a.suite.id}/runs`, {
        headers: await h.as('MEMBER'),
        body,
      });
    expectProblem(await post({ baseline_run_id: other.id }), 422, 'rule_violation');
    expectProblem(await post({ calls: 1000, runs_per_combination: 6 }), 422, 'rule_violation');
  });
});

describe('GET /suite-runs', () => {
  it('lists newest first, filtered by suite, agent and status', async () => {
    const { suite, agent } = await makeRunnableSuite(h, h);
    const first = await startRun(h, h, suite.id);
    const second = await startRun(h, h, suite.id);
    const bySuite = (await get(`/api/v1/suite-runs?suite_id=${suite.id}`)).body;
    expect(bySuite.items.map((r: { id: string }) => r.id)).toEqual([second.id, first.id]);
    expect((await get(`/api/v1/suite-runs?agent_id=${agent.id}&status=pending`)).body.total).toBe(2);
    expect((await get(`/api/v1/suite-runs?suite_id=${suite.id}&status=completed`)).body.total).toBe(0);
    expectProblem(await get('/api/v1/suite-runs?status=finished'), 422, 'validation_failed');
  });
});

describe('POST /suite-runs/{id}/cancel', () => {
  it('cancels every call, is idempotent, and leaves nothing to compare', async () => {
    const { suite } = await makeRunnableSuite(h, h, { scenarios: 2 });
    const run = await startRun(h, h, suite.id);
    const cancel = async () =>
      h.request('POST', `/api/v1/suite-runs/${run.id}/cancel`, { headers: await h.as('MEMBER'), body: {} });
    const first = await cancel();
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({ status: 'cancelled', calls_cancelled: 2, calls_pending: 0 });
    expect((await cancel()).body.finished_at).toBe(first.body.finished_at);
    const calls = (await get(`/api/v1/suite-runs/${run.id}/calls`)).body.items;
    expect(calls.every((c: { error: { code: string } }) => c.error.code === 'cancelled')).toBe(true);
    expectProblem(await get(`/api/v1/suite-runs/${run.id}/compare`), 409, 'conflict');
  });
});

describe('suite runs: access rules', () => {
  const runOf = async (t: Parameters<AccessRule['request']>[0]) => {
    const { suite } = await makeRunnableSuite(h, t);
    return startRun(h, t, suite.id);
  };
  const rules: AccessRule[] = [
    {
      route: 'POST /api/v1/evaluator-suites/:suite_id/runs',
      minRole: 'MEMBER',
      scoped: true,
      request: async (t) => ({
        path: `/api/v1/evaluator-suites/${(await makeRunnableSuite(h, t)).suite.id}/runs`,
        body: {},
      }),
    },
    {
      route: 'GET /api/v1/suite-runs',
      minRole: 'READER',
      request: async () => ({ path: '/api/v1/suite-runs' }),
    },
    {
      route: 'GET /api/v1/suite-runs/:run_id',
      minRole: 'READER',
      scoped: true,
      request: async (t) => ({ path: `/api/v1/suite-runs/${(await runOf(t)).id}` }),
    },
    {
      route: 'GET /api/v1/suite-runs/:run_id/calls',
      minRole: 'READER',
      scoped: true,
      request: async (t) => ({ path: `/api/v1/suite-runs/${(await runOf(t)).id}/calls` }),
    },
    {
      route: 'POST /api/v1/suite-runs/:run_id/cancel',
      minRole: 'MEMBER',
      scoped: true,
      request: async (t) => ({ path: `/api/v1/suite-runs/${(await runOf(t)).id}/cancel`, body: {} }),
    },
  ];
  describeAccessRules(() => h, rules);
});

describe('suite_run webhook events', () => {
  it('records suite_run.failed once, with the run that failed, when no call completed', async () => {
    const t = await h.createTenant();
    const endpoint = await h.request('POST', '/api/v1/webhook-endpoints', {
      headers: await t.as('ADMIN'),
      body: { url: 'http://127.0.0.1:9/hooks', events: ['suite_run.failed', 'suite_run.completed'] },
    });
    expect(endpoint.status).toBe(201);
    const { suite } = await makeRunnableSuite(h, t);
    const run = await startRun(h, t, suite.id);
    await h.db('suite_run_calls').where({ run_id: run.id }).update({ status: 'failed' });
    expect(await settleRun(h.server.deps, run.id)).toBe(true);
    expect(await settleRun(h.server.deps, run.id)).toBe(false);
    const events = await h.db('webhook_events').where({ organization_id: t.organizationId });
    expect(events).toMatchObject([
      {
        type: 'suite_run.failed',
        data: {
          suite_run_id: run.id,
          suite_id: suite.id,
          workspace_id: t.workspaceId,
          evaluation_id: null,
          status: 'failed',
          pass_rate: null,
          error_message: expect.stringMatching(/^No call completed/),
          console_url: null,
        },
      },
    ]);
    const deliveries = await h.db('webhook_deliveries').where({ event_id: events[0]!.id });
    expect(deliveries).toMatchObject([{ endpoint_id: endpoint.body.id, status: 'pending' }]);
  });
});
