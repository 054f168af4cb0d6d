import { beforeAll, describe, expect, it } from 'vitest';
import { describeAccessRules, expectProblem } from '../../../test/access-rules.js';
import { makeAgent, makeScenario } from '../../../test/factories/evaluators.js';
import { createHarness, type Harness } from '../../../test/harness.js';

let h: Harness;
beforeAll(async () => {
  h = await createHarness();
});

let seq = 0;
describeAccessRules(
  () => h,
  [
    {
      route: 'GET /api/v1/scenarios',
      minRole: 'READER',
      request: async () => ({ path: '/api/v1/scenarios' }),
    },
    {
      route: 'POST /api/v1/scenarios',
      minRole: 'MEMBER',
      request: async () => ({ path: '/api/v1/scenarios', body: { name: `Rule ${++seq}` } }),
    },
    {
      route: 'GET /api/v1/scenarios/:scenario_id',
      minRole: 'READER',
      scoped: true,
      request: async (t) => ({ path: `/api/v1/scenarios/${(await makeScenario(h, t)).id}` }),
    },
    {
      route: 'PATCH /api/v1/scenarios/:scenario_id',
      minRole: 'MEMBER',
      scoped: true,
      request: async (t) => ({
        path: `/api/v1/scenarios/${(await makeScenario(h, t)).id}`,
        body: { description: 'Caller wants a refund' },
      }),
    },
    {
      route: 'DELETE /api/v1/scenarios/:scenario_id',
      minRole: 'MEMBER',
      scoped: true,
      request: async (t) => ({ path: `/api/v1/scenarios/${(await makeScenario(h, t)).id}` }),
    },
  ],
);

describe('scenarios', () => {
  it('keeps required_info as any JSON value or null', async () => {
    const t = await h.createTenant();
    const headers = await t.as('MEMBER');
    const none = await (await t.client()).scenarios.create({ name: `Scenario ${++seq}` });
    expect(none).toMatchObject({ required_info: null, description: '', agent_id: null });
    for (const value of ['order number', 42, true, ['name', 'dob'], { account: { id: 'A-1' } }]) {
      const s = await makeScenario(h, t, { required_info: value });
      expect(s.required_info).toEqual(value);
    }
    const cleared = await h.request('PATCH', `/api/v1/scenarios/${none.id}`, {
      headers,
      body: { required_info: { a: 1 } },
    });
    expect(cleared.body.required_info).toEqual({ a: 1 });
    const nulled = await h.request('PATCH', `/api/v1/scenarios/${none.id}`, {
      headers,
      body: { required_info: null },
    });
    expect(nulled.body.required_info).toBeNull();
  });

  it('binds to an agent of the workspace only, and lists by agent', async () => {
    const t = await h.createTenant();
    const agentId = (await makeAgent(h, t)).id;
    const bound = await makeScenario(h, t, { agent_id: agentId });
    await makeScenario(h, t);
    const list = await h.request('GET', `/api/v1/scenarios?agent_id=${agentId}`, {
      headers: await t.as('READER'),
    });
    expect(list.body).toMatchObject({ total: 1, items: [{ id: bound.id }] });
    const other = await h.createTenant();
    const foreignAgent = (await makeAgent(h, other)).id;
    expectProblem(
      await h.request('POST', '/api/v1/scenarios', {
        headers: await t.as('MEMBER'),
        body: { name: 'Foreign', agent_id: foreignAgent },
      }),
      404,
      'not_found',
    );
  });

  it('a duplicate name in the workspace is 409', async () => {
    const t = await h.createTenant();
    await makeScenario(h, t, { name: 'Cancel plan' });
    expectProblem(
      await h.request('POST', '/api/v1/scenarios', {
        headers: await t.as('MEMBER'),
        body: { name: 'cancel PLAN' },
      }),
      409,
      'conflict',
    );
  });

  it('delete is 409 in_use while an evaluator uses the scenario', async () => {
    const t = await h.createTenant();
    const headers = await t.as('MEMBER');
    const agentId = (await makeAgent(h, t)).id;
    const scenario = await makeScenario(h, t);
    const personas = await h.request('GET', '/api/v1/personas?is_custom=false', { headers });
    await h.request('POST', '/api/v1/evaluators', {
      headers,
      body: { agent_id: agentId, scenario_id: scenario.id, persona_id: personas.body.items[0].id },
    });
    expectProblem(await h.request('DELETE', `/api/v1/scenarios/${scenario.id}`, { headers }), 409, 'in_use');
  });
});
