/** Server, contract and SDK agree on scenarios: required_info, agent binding, filters, problems. */
import { randomUUID } from 'node:crypto';
import {
  ConflictError,
  NotFoundError,
  PermissionDeniedError,
  UnprocessableEntityError,
} from '@voice-eval/sdk';
import { beforeAll, describe, expect, it } from 'vitest';
import { expectApiError, expectPagination } from './conformance.js';
import { makeAgent, makePersona, makeScenario } from './fixtures.js';
import { createSdkHarness, type SdkHarness } from './sdk-harness.js';

let h: SdkHarness;
beforeAll(async () => {
  h = await createSdkHarness();
});

describe('scenarios', () => {
  it('keeps required_info as given; get and update agree', async () => {
    const client = h.sdk();
    const scenario = await makeScenario(client, { required_info: { order: 'A-1', items: [1, 2] } });
    expect(scenario.required_info).toEqual({ order: 'A-1', items: [1, 2] });
    await expect(client.scenarios.get(scenario.id)).resolves.toEqual(scenario);
    const cleared = await client.scenarios.update(scenario.id, { required_info: null, description: 'New' });
    expect(cleared).toMatchObject({ required_info: null, description: 'New' });
  });

  it('binds to an agent of the workspace and lists by agent, across pages', async () => {
    const client = h.sdk({}, await h.createTenant());
    const agent = await makeAgent(client);
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) ids.unshift((await makeScenario(client, { agent_id: agent.id })).id);
    const loose = await makeScenario(client);
    await expectPagination((q) => client.scenarios.list({ ...q, agent_id: agent.id }), ids, 2);
    expect((await client.scenarios.list()).items.map((s) => s.id)).toEqual([loose.id, ...ids]);
    const other = h.sdk({}, await h.createTenant());
    await expectApiError(
      makeScenario(client, { agent_id: (await makeAgent(other)).id }),
      NotFoundError,
      404,
      'not_found',
    );
  });

  it('duplicates are 409 problems and invalid bodies 422 problems', async () => {
    const client = h.sdk();
    const scenario = await makeScenario(client);
    await expectApiError(makeScenario(client, { name: scenario.name }), ConflictError, 409, 'conflict');
    const error = await expectApiError(makeScenario(client, { name: '' }), UnprocessableEntityError, 422);
    expect(error.errors.map((e) => e.path)).toEqual(['body.name']);
  });

  it('a scenario an evaluator uses is a 409 in_use problem to delete', async () => {
    const client = h.sdk();
    const agent = await makeAgent(client);
    const scenario = await makeScenario(client);
    const persona = await makePersona(client);
    await client.evaluators.create({ agent_id: agent.id, scenario_id: scenario.id, persona_id: persona.id });
    await expectApiError(client.scenarios.delete(scenario.id), ConflictError, 409, 'in_use');
    const free = await makeScenario(client);
    await expect(client.scenarios.delete(free.id)).resolves.toBeUndefined();
    await expectApiError(client.scenarios.get(free.id), NotFoundError, 404, 'not_found');
  });

  it('unknown ids are 404 problems; readers cannot write', async () => {
    await expectApiError(h.sdk().scenarios.update(randomUUID(), { name: 'x' }), NotFoundError, 404);
    await expectApiError(makeScenario(await h.sdkAs('READER')), PermissionDeniedError, 403, 'forbidden');
  });
});
