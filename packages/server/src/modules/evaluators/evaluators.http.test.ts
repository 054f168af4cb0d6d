import { EvaluatorSchema } from '@voice-eval/contract';
import { beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { describeAccessRules, expectProblem } from '../../../test/access-rules.js';
import {
  countEvaluators,
  makeAgent,
  makeDraftMetric,
  makeEvaluator,
  makeMetric,
  makePersona,
  makeScenario,
  makeTriple,
} from '../../../test/factories/evaluators.js';
import { createHarness, type Harness, type Tenant } from '../../../test/harness.js';

let h: Harness;
beforeAll(async () => {
  h = await createHarness();
});

const bulkBody = async (t: Tenant) => {
  const { agent, scenario, persona } = await makeTriple(h, t);
  return { agent_id: agent.id, scenario_id: scenario.id, persona_ids: [persona.id] };
};

describeAccessRules(
  () => h,
  [
    {
      route: 'POST /api/v1/evaluators/bulk',
      minRole: 'MEMBER',
      scoped: true,
      request: async (t) => ({ path: '/api/v1/evaluators/bulk', body: await bulkBody(t) }),
    },
    {
      route: 'GET /api/v1/evaluators',
      minRole: 'READER',
      request: async () => ({ path: '/api/v1/evaluators' }),
    },
    {
      route: 'POST /api/v1/evaluators',
      minRole: 'MEMBER',
      scoped: true,
      request: async (t) => {
        const { agent, scenario, persona } = await makeTriple(h, t);
        return {
          path: '/api/v1/evaluators',
          body: { agent_id: agent.id, scenario_id: scenario.id, persona_id: persona.id },
        };
      },
    },
    {
      route: 'GET /api/v1/evaluators/:evaluator_id',
      minRole: 'READER',
      scoped: true,
      request: async (t) => ({ path: `/api/v1/evaluators/${(await makeEvaluator(h, t)).id}` }),
    },
    {
      route: 'PATCH /api/v1/evaluators/:evaluator_id',
      minRole: 'MEMBER',
      scoped: true,
      request: async (t) => ({
        path: `/api/v1/evaluators/${(await makeEvaluator(h, t)).id}`,
        body: { tags: ['x'] },
      }),
    },
    {
      route: 'DELETE /api/v1/evaluators/:evaluator_id',
      minRole: 'MEMBER',
      scoped: true,
      request: async (t) => ({ path: `/api/v1/evaluators/${(await makeEvaluator(h, t)).id}` }),
    },
  ],
);

describe('evaluators', () => {
  it('creates with a readable evaluator_id, a derived name, and active metrics', async () => {
    const t = await h.createTenant();
    const metric = await makeMetric(h, t);
    const orgWide = await makeMetric(h, t, { scope: 'organization' });
    const { agent, scenario, persona } = await makeTriple(h, t);
    const reply = await h.request('POST', '/api/v1/evaluators', {
      headers: await t.as('MEMBER'),
      body: {
        agent_id: agent.id,
        scenario_id: scenario.id,
        persona_id: persona.id,
        metric_ids: [metric.id, orgWide.id, metric.id],
        llm_provider: 'openai',
        tags: ['smoke'],
      },
    });
    expect(reply.status).toBe(201);
    const evaluator = EvaluatorSchema.parse(reply.body);
    expect(evaluator.evaluator_id).toMatch(/^EV-[0-9A-HJKMNP-TV-Z]{6}$/);
    expect(evaluator).toMatchObject({
      organization_id: t.organizationId,
      name: `${agent.name} / ${scenario.name} / ${persona.name}`,
      metric_ids: [metric.id, orgWide.id],
      custom_prompt: '',
      llm_provider: 'openai',
      llm_model: null,
      llm_config: {},
      tags: ['smoke'],
    });
    const byCode = await h.request('GET', `/api/v1/evaluators?q=${evaluator.evaluator_id.toLowerCase()}`, {
      headers: await t.as('READER'),
    });
    expect(byCode.body).toMatchObject({ total: 1, items: [{ id: evaluator.id }] });
    const byTag = await h.request('GET', '/api/v1/evaluators?tag=smoke', { headers: await t.as('READER') });
    expect(byTag.body.total).toBe(1);
  });

  it('refuses draft, unknown and foreign metrics with 422 naming each bad entry', async () => {
    const t = await h.createTenant();
    const other = await h.createTenant();
    const good = await makeMetric(h, t);
    const draft = await makeDraftMetric(h, t);
    const foreign = await makeMetric(h, other);
    const evaluator = await makeEvaluator(h, t);
    const reply = await h.request('PATCH', `/api/v1/evaluators/${evaluator.id}`, {
      headers: await t.as('MEMBER'),
      body: { metric_ids: [good.id, draft.id, foreign.id, '1b4e28ba-2fa1-41d2-883f-0016d3cca427'] },
    });
    expectProblem(reply, 422, 'rule_violation');
    expect(reply.body.errors.map((e: { path: string }) => e.path)).toEqual([
      'body.metric_ids.1',
      'body.metric_ids.2',
      'body.metric_ids.3',
    ]);
    const unchanged = await h.request('GET', `/api/v1/evaluators/${evaluator.id}`, {
      headers: await t.as('READER'),
    });
    expect(unchanged.body.metric_ids).toEqual([]);
  });

  it("another tenant's agent, scenario or persona is 404; built-in personas are usable", async () => {
    const t = await h.createTenant();
    const other = await h.createTenant();
    const mine = await makeTriple(h, t);
    const theirs = await makeTriple(h, other);
    const headers = await t.as('MEMBER');
    const body = { agent_id: mine.agent.id, scenario_id: mine.scenario.id, persona_id: mine.persona.id };
    for (const swap of [
      { agent_id: theirs.agent.id },
      { scenario_id: theirs.scenario.id },
      { persona_id: theirs.persona.id },
    ]) {
      expectProblem(
        await h.request('POST', '/api/v1/evaluators', { headers, body: { ...body, ...swap } }),
        404,
      );
    }
    const builtIn = (await h.request('GET', '/api/v1/personas?is_custom=false', { headers })).body.items[0];
    const ok = await h.request('POST', '/api/v1/evaluators', {
      headers,
      body: { ...body, persona_id: builtIn.id },
    });
    expect(ok.status).toBe(201);
  });

  it('a scenario written for another agent is 422', async () => {
    const t = await h.createTenant();
    const agent = await makeAgent(h, t);
    const otherAgent = await makeAgent(h, t);
    const scenario = await makeScenario(h, t, { agent_id: otherAgent.id });
    const persona = await makePersona(h, t);
    const reply = await h.request('POST', '/api/v1/evaluators', {
      headers: await t.as('MEMBER'),
      body: { agent_id: agent.id, scenario_id: scenario.id, persona_id: persona.id },
    });
    expectProblem(reply, 422, 'rule_violation');
  });
});

describe('POST /api/v1/evaluators/bulk (deprecated)', () => {
  it('creates one evaluator per persona with Deprecation and Link headers', async () => {
    const t = await h.createTenant();
    const { agent, scenario, persona } = await makeTriple(h, t);
    const second = await makePersona(h, t);
    const reply = await h.request('POST', '/api/v1/evaluators/bulk', {
      headers: await t.as('MEMBER'),
      body: {
        agent_id: agent.id,
        scenario_id: scenario.id,
        persona_ids: [persona.id, second.id, persona.id],
        name_prefix: 'Nightly',
        tags: ['bulk'],
      },
    });
    expect(reply.status).toBe(201);
    expect(reply.headers.get('deprecation')).toMatch(/^@\d+$/);
    expect(reply.headers.get('link')).toBe('</api/v1/evaluators>; rel="successor-version"');
    const created = z.array(EvaluatorSchema).parse(reply.body);
    expect(created.map((e) => e.name)).toEqual([
      `Nightly / ${scenario.name} / ${persona.name}`,
      `Nightly / ${scenario.name} / ${second.name}`,
    ]);
    expect(new Set(created.map((e) => e.evaluator_id)).size).toBe(2);
    expect(created.every((e) => e.tags[0] === 'bulk')).toBe(true);
  });

  it('rolls back fully when one persona id is foreign, and carries the headers on the error', async () => {
    const t = await h.createTenant();
    const other = await h.createTenant();
    const { agent, scenario, persona } = await makeTriple(h, t);
    const foreign = await makePersona(h, other);
    const before = await countEvaluators(h, t.organizationId);
    const reply = await h.request('POST', '/api/v1/evaluators/bulk', {
      headers: await t.as('MEMBER'),
      body: { agent_id: agent.id, scenario_id: scenario.id, persona_ids: [persona.id, foreign.id] },
    });
    expectProblem(reply, 404, 'not_found');
    expect(reply.headers.get('deprecation')).toBeTruthy();
    expect(await countEvaluators(h, t.organizationId)).toBe(before);
    expect(await countEvaluators(h, other.organizationId)).toBe(0);
  });

  it('rolls back fully when a metric is not active', async () => {
    const t = await h.createTenant();
    const body = await bulkBody(t);
    const draft = await makeDraftMetric(h, t);
    const reply = await h.request('POST', '/api/v1/evaluators/bulk', {
      headers: await t.as('MEMBER'),
      body: { ...body, metric_ids: [draft.id] },
    });
    expectProblem(reply, 422, 'rule_violation');
    expect(await countEvaluators(h, t.organizationId)).toBe(0);
  });
});
