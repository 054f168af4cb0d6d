import { EvaluatorSuiteSchema } from '@voice-eval/contract';
import { beforeAll, describe, expect, it } from 'vitest';
import { describeAccessRules } from '../../../test/access-rules.js';
import { createSuite, makeWorld, nextSeq } from '../../../test/factories/evaluator-suites.js';
import { createHarness, type Harness } from '../../../test/harness.js';

let h: Harness;
beforeAll(async () => {
  h = await createHarness();
});

describeAccessRules(
  () => h,
  [
    {
      route: 'GET /api/v1/evaluator-suites',
      minRole: 'READER',
      request: async () => ({ path: '/api/v1/evaluator-suites' }),
    },
    {
      route: 'POST /api/v1/evaluator-suites',
      minRole: 'MEMBER',
      scoped: true,
      request: async (t) => {
        const world = await makeWorld(h, t);
        return {
          path: '/api/v1/evaluator-suites',
          body: {
            name: `Rule ${nextSeq()}`,
            agent_id: world.agent.id,
            persona_ids: [world.personas[0].id],
            scenario_ids: [world.scenarios[0].id],
          },
        };
      },
    },
    {
      route: 'GET /api/v1/evaluator-suites/:suite_id',
      minRole: 'READER',
      scoped: true,
      request: async (t) => ({ path: `/api/v1/evaluator-suites/${(await createSuite(h, t)).suite.id}` }),
    },
    {
      route: 'PATCH /api/v1/evaluator-suites/:suite_id',
      minRole: 'MEMBER',
      scoped: true,
      request: async (t) => ({
        path: `/api/v1/evaluator-suites/${(await createSuite(h, t)).suite.id}`,
        body: { is_active: false },
      }),
    },
    {
      route: 'DELETE /api/v1/evaluator-suites/:suite_id',
      minRole: 'MEMBER',
      scoped: true,
      request: async (t) => ({ path: `/api/v1/evaluator-suites/${(await createSuite(h, t)).suite.id}` }),
    },
  ],
);

describe('GET /api/v1/evaluator-suites/{suite_id}', () => {
  it('answers the suite as the spec shows it: personas, combinations with names inlined, counts', async () => {
    const t = await h.createTenant();
    const { world, suite } = await createSuite(h, t, { tags: ['nightly'], llm_model: 'gpt-4o-mini' });
    const reply = await h.request('GET', `/api/v1/evaluator-suites/${suite.id}`, {
      headers: await t.as('READER'),
    });
    expect(reply.status).toBe(200);
    const got = EvaluatorSuiteSchema.strict().parse(reply.body);
    const [zed, amy] = world.personas;
    const [refund, cancel] = world.scenarios;
    expect(got).toMatchObject({
      organization_id: t.organizationId,
      agent_id: world.agent.id,
      persona_id: zed.id,
      persona_ids: [zed.id, amy.id],
      personas: [
        { id: zed.id, name: zed.name, tts_provider: 'cartesia' },
        { id: amy.id, name: amy.name, tts_provider: 'cartesia' },
      ],
      agent_name: world.agent.name,
      persona_name: zed.name,
      agent_call_type: 'outbound',
      agent_call_medium: 'web',
      voice_bundle_tts_provider: 'elevenlabs',
      metric_ids: [world.metric.id],
      llm_provider: null,
      llm_model: 'gpt-4o-mini',
      llm_config: {},
      tags: ['nightly'],
      default_runs_per_combination: 1,
      round_robin_index: 0,
      is_active: true,
      agent_suite_count: 1,
      combination_count: 4,
      created_by: expect.stringMatching(/^member-.*@example\.test$/),
    });
    // persona order first (Zed before Amy, as given), then scenario name (A cancel before B refund)
    expect(got.combinations.map((c) => [c.persona_name, c.scenario_name])).toEqual([
      [zed.name, cancel.name],
      [zed.name, refund.name],
      [amy.name, cancel.name],
      [amy.name, refund.name],
    ]);
    expect(got.combinations[1]).toMatchObject({
      scenario_id: refund.id,
      scenario_description: 'Caller asks',
      scenario_required_info: { order: 'A-1' },
    });
    expect(got.combinations[0]!.scenario_required_info).toBeNull();
    const evaluators = await h.request('GET', '/api/v1/evaluators?page_size=100', {
      headers: await t.as('READER'),
    });
    const codes = new Set(evaluators.body.items.map((e: { evaluator_id: string }) => e.evaluator_id));
    expect(got.combinations.every((c) => codes.has(c.evaluator_id))).toBe(true);
    expect(
      evaluators.body.items.every((e: { metric_ids: string[] }) => e.metric_ids[0] === world.metric.id),
    ).toBe(true);
  });

  it('counts the suites of the same agent and lists by agent', async () => {
    const t = await h.createTenant();
    const { world, suite } = await createSuite(h, t);
    const second = await h.request('POST', '/api/v1/evaluator-suites', {
      headers: await t.as('MEMBER'),
      body: {
        name: 'Second',
        agent_id: world.agent.id,
        persona_ids: [world.personas[1].id],
        scenario_ids: [world.scenarios[0].id],
      },
    });
    expect(second.body).toMatchObject({ agent_suite_count: 2, combination_count: 1 });
    const list = await h.request('GET', `/api/v1/evaluator-suites?agent_id=${world.agent.id}`, {
      headers: await t.as('READER'),
    });
    expect(list.body.items.map((s: { id: string }) => s.id)).toEqual([second.body.id, suite.id]);
    expect(list.body.items[1].agent_suite_count).toBe(2);
  });
});
