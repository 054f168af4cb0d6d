import { beforeAll, describe, expect, it } from 'vitest';
import { expectProblem } from '../../../test/access-rules.js';
import { createSuite, makeWorld } from '../../../test/factories/evaluator-suites.js';
import {
  countEvaluators,
  makeAgent,
  makeMetric,
  makePersona,
  makeScenario,
} from '../../../test/factories/evaluators.js';
import { createHarness, type Harness } from '../../../test/harness.js';

let h: Harness;
beforeAll(async () => {
  h = await createHarness();
});

describe('suite changes', () => {
  it('rebuilds combinations: remaining pairs keep their evaluator, dropped ones lose theirs', async () => {
    const t = await h.createTenant();
    const headers = await t.as('MEMBER');
    const { world, suite } = await createSuite(h, t);
    const kept = suite.combinations.filter((c) => c.persona_id === world.personas[1].id);
    const extra = await makeScenario(h, t, { name: 'C extra' });
    const metric = await makeMetric(h, t);
    await h.db('evaluator_suites').where({ id: suite.id }).update({ round_robin_index: 3 });
    const reply = await h.request('PATCH', `/api/v1/evaluator-suites/${suite.id}`, {
      headers,
      body: {
        persona_ids: [world.personas[1].id],
        scenario_ids: [...world.scenarios.map((s) => s.id), extra.id],
        metric_ids: [metric.id],
      },
    });
    expect(reply.status, JSON.stringify(reply.body)).toBe(200);
    expect(reply.body).toMatchObject({ combination_count: 3, round_robin_index: 0 });
    const after = new Map(
      reply.body.combinations.map((c: { scenario_id: string; evaluator_id: string }) => [
        c.scenario_id,
        c.evaluator_id,
      ]),
    );
    for (const c of kept) expect(after.get(c.scenario_id)).toBe(c.evaluator_id);
    expect(await countEvaluators(h, t.organizationId)).toBe(3);
    const evaluators = await h.request('GET', '/api/v1/evaluators', { headers });
    expect(evaluators.body.items.every((e: { metric_ids: string[] }) => e.metric_ids[0] === metric.id)).toBe(
      true,
    );
  });

  it('an evaluator behind a combination cannot be deleted alone; deleting the suite removes them', async () => {
    const t = await h.createTenant();
    const headers = await t.as('MEMBER');
    const { suite } = await createSuite(h, t);
    const evaluators = await h.request('GET', '/api/v1/evaluators', { headers });
    expectProblem(
      await h.request('DELETE', `/api/v1/evaluators/${evaluators.body.items[0].id}`, { headers }),
      409,
      'in_use',
    );
    expect((await h.request('DELETE', `/api/v1/evaluator-suites/${suite.id}`, { headers })).status).toBe(204);
    expect(await countEvaluators(h, t.organizationId)).toBe(0);
  });

  it('a foreign persona or a scenario of another agent creates nothing', async () => {
    const t = await h.createTenant();
    const other = await h.createTenant();
    const world = await makeWorld(h, t);
    const foreign = await makePersona(h, other);
    const headers = await t.as('MEMBER');
    const base = { name: 'Broken', agent_id: world.agent.id, scenario_ids: [world.scenarios[0].id] };
    expectProblem(
      await h.request('POST', '/api/v1/evaluator-suites', {
        headers,
        body: { ...base, persona_ids: [world.personas[0].id, foreign.id] },
      }),
      404,
    );
    const otherAgent = await makeAgent(h, t);
    expectProblem(
      await h.request('POST', '/api/v1/evaluator-suites', {
        headers,
        body: {
          ...base,
          agent_id: otherAgent.id,
          persona_ids: [world.personas[0].id],
          scenario_ids: [world.scenarios[1].id],
        },
      }),
      422,
      'rule_violation',
    );
    expect(await countEvaluators(h, t.organizationId)).toBe(0);
    expect(await h.db('evaluator_suites').where({ organization_id: t.organizationId })).toEqual([]);
  });
});
