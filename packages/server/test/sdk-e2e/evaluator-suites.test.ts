/** Server, contract and SDK agree on evaluator suites: combinations, counts, changes and problems. */
import { randomUUID } from 'node:crypto';
import {
  ConflictError,
  NotFoundError,
  PermissionDeniedError,
  UnprocessableEntityError,
  type VoiceEval,
} from '@voice-eval/sdk';
import { beforeAll, describe, expect, it } from 'vitest';
import { expectApiError, expectPagination } from './conformance.js';
import { makeAgent, makeMetric, makePersona, makeScenario, unique } from './fixtures.js';
import { createSdkHarness, type SdkHarness } from './sdk-harness.js';

let h: SdkHarness;
beforeAll(async () => {
  h = await createSdkHarness();
});

/** An agent, two personas, two scenarios and a metric, and a suite crossing them all. */
const makeSuite = async (client: VoiceEval, name = unique('Suite')) => {
  const agent = await makeAgent(client);
  const personas = [
    await makePersona(client, { name: unique('Zed') }),
    await makePersona(client, { name: unique('Amy') }),
  ];
  const scenarios = [
    await makeScenario(client, { name: unique('B refund') }),
    await makeScenario(client, { name: unique('A cancel') }),
  ];
  const metric = await makeMetric(client);
  const suite = await client.evaluatorSuites.create({
    name,
    agent_id: agent.id,
    persona_ids: personas.map((p) => p.id),
    scenario_ids: scenarios.map((s) => s.id),
    metric_ids: [metric.id],
    tags: ['nightly'],
  });
  return { agent, personas, scenarios, metric, suite };
};

describe('evaluator suites', () => {
  it('create answers every persona-scenario combination with an evaluator; get agrees', async () => {
    const client = h.sdk();
    const { agent, personas, metric, suite } = await makeSuite(client);
    expect(suite).toMatchObject({
      agent_id: agent.id,
      agent_name: agent.name,
      persona_ids: personas.map((p) => p.id),
      metric_ids: [metric.id],
      combination_count: 4,
      default_runs_per_combination: 1,
      agent_suite_count: 1,
    });
    await expect(client.evaluatorSuites.get(suite.id)).resolves.toEqual(suite);
    const codes = new Set(
      (await client.evaluators.list({ page_size: 100 })).items.map((e) => e.evaluator_id),
    );
    expect(suite.combinations.every((c) => codes.has(c.evaluator_id))).toBe(true);
  });

  it('an update rebuilds combinations; an evaluator behind one is a 409 in_use problem to delete', async () => {
    const client = h.sdk({}, await h.createTenant());
    const { personas, scenarios, suite } = await makeSuite(client);
    const updated = await client.evaluatorSuites.update(suite.id, {
      persona_ids: [personas[1]!.id],
      scenario_ids: scenarios.map((s) => s.id),
    });
    expect(updated.combination_count).toBe(2);
    expect((await client.evaluators.list()).total).toBe(2);
    const [behind] = (await client.evaluators.list()).items;
    await expectApiError(client.evaluators.delete(behind!.id), ConflictError, 409, 'in_use');
    await expect(client.evaluatorSuites.delete(suite.id)).resolves.toBeUndefined();
    expect((await client.evaluators.list()).total).toBe(0);
    await expectApiError(client.evaluatorSuites.get(suite.id), NotFoundError, 404, 'not_found');
  });

  it('paginates newest first and filters by agent', async () => {
    const client = h.sdk({}, await h.createTenant());
    const first = await makeSuite(client);
    const second = await client.evaluatorSuites.create({
      name: unique('Second'),
      agent_id: first.agent.id,
      persona_ids: [first.personas[0]!.id],
      scenario_ids: [first.scenarios[0]!.id],
    });
    expect(second).toMatchObject({ agent_suite_count: 2, combination_count: 1 });
    const third = await makeSuite(client);
    await expectPagination(
      (q) => client.evaluatorSuites.list(q),
      [third.suite.id, second.id, first.suite.id],
      2,
    );
    const byAgent = await client.evaluatorSuites.list({ agent_id: first.agent.id });
    expect(byAgent.items.map((s) => s.id)).toEqual([second.id, first.suite.id]);
  });

  it('foreign personas are 404 problems, scenarios of another agent 422, bad bodies 422', async () => {
    const client = h.sdk();
    const { agent, personas, scenarios } = await makeSuite(client);
    const other = h.sdk({}, await h.createTenant());
    const base = { name: unique('Broken'), agent_id: agent.id, scenario_ids: [scenarios[0]!.id] };
    await expectApiError(
      client.evaluatorSuites.create({ ...base, persona_ids: [(await makePersona(other)).id] }),
      NotFoundError,
      404,
      'not_found',
    );
    const bound = await makeScenario(client, { agent_id: (await makeAgent(client)).id });
    await expectApiError(
      client.evaluatorSuites.create({ ...base, persona_ids: [personas[0]!.id], scenario_ids: [bound.id] }),
      UnprocessableEntityError,
      422,
      'rule_violation',
    );
    const error = await expectApiError(
      client.evaluatorSuites.create({ ...base, persona_ids: [] }),
      UnprocessableEntityError,
      422,
      'validation_failed',
    );
    expect(error.errors.map((e) => e.path)).toEqual(['body.persona_ids']);
  });

  it('unknown ids are 404 problems; readers cannot write', async () => {
    await expectApiError(h.sdk().evaluatorSuites.update(randomUUID(), { name: 'x' }), NotFoundError, 404);
    const reader = await h.sdkAs('READER');
    await expectApiError(
      reader.evaluatorSuites.create({
        name: unique('No'),
        agent_id: randomUUID(),
        persona_ids: [randomUUID()],
        scenario_ids: [randomUUID()],
      }),
      PermissionDeniedError,
      403,
      'forbidden',
    );
  });
});
