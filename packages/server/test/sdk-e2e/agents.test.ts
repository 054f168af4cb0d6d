/** Server, contract and SDK agree on agents: defaults, filters, medium rules, in-use deletes. */
import { randomUUID } from 'node:crypto';
import {
  ConflictError,
  NotFoundError,
  PermissionDeniedError,
  UnprocessableEntityError,
} from '@voice-eval/sdk';
import { beforeAll, describe, expect, it } from 'vitest';
import { expectApiError, expectPagination } from './conformance.js';
import { CASCADED, makeAgent, makeScenario, unique } from './fixtures.js';
import { createSdkHarness, type SdkHarness } from './sdk-harness.js';

let h: SdkHarness;
beforeAll(async () => {
  h = await createSdkHarness();
});

describe('agents', () => {
  it('create fills defaults and stamps the creator; get and update agree', async () => {
    const client = h.sdk();
    const agent = await makeAgent(client, { phone_number: '+14155550100' });
    expect(agent).toMatchObject({
      workspace_id: h.workspaceId,
      description: '',
      phone_number: '+14155550100',
      voice_bundle_id: null,
      created_by: h.owner.user.email,
    });
    await expect(client.agents.get(agent.id)).resolves.toEqual(agent);
    const bundle = await client.voiceBundles.create({ name: unique('Bundle'), ...CASCADED });
    const updated = await client.agents.update(agent.id, {
      voice_bundle_id: bundle.id,
      description: 'Billing',
    });
    expect(updated).toMatchObject({ voice_bundle_id: bundle.id, description: 'Billing' });
  });

  it('lists newest first with filters, across pages', async () => {
    const client = h.sdk({}, await h.createTenant());
    const ids: string[] = [];
    for (let i = 0; i < 4; i++) ids.unshift((await makeAgent(client, { name: `Agent ${i}` })).id);
    const web = await makeAgent(client, { name: 'Web helper', call_medium: 'web', call_type: 'outbound' });
    await expectPagination((q) => client.agents.list(q), [web.id, ...ids], 2);
    expect((await client.agents.list({ call_medium: 'web' })).items.map((a) => a.id)).toEqual([web.id]);
    expect((await client.agents.list({ q: 'AGENT 2' })).items.map((a) => a.id)).toEqual([ids[1]]);
  });

  it('a phone number that does not suit the medium is a 422 rule_violation problem', async () => {
    const error = await expectApiError(
      makeAgent(h.sdk(), { call_medium: 'web', phone_number: '+14155550100' }),
      UnprocessableEntityError,
      422,
      'rule_violation',
    );
    expect(error.errors.map((e) => e.path)).toEqual(['body.phone_number']);
    await expectApiError(makeAgent(h.sdk(), { phone_number: '555-0100' }), UnprocessableEntityError, 422);
  });

  it('a duplicate name is a 409 problem; a voice bundle of another organization a 404', async () => {
    const client = h.sdk();
    const agent = await makeAgent(client);
    await expectApiError(
      makeAgent(client, { name: agent.name.toUpperCase() }),
      ConflictError,
      409,
      'conflict',
    );
    const other = h.sdk({}, await h.createTenant());
    const theirs = await other.voiceBundles.create({ name: unique('Theirs'), ...CASCADED });
    await expectApiError(
      client.agents.update(agent.id, { voice_bundle_id: theirs.id }),
      NotFoundError,
      404,
      'not_found',
    );
  });

  it('an agent an evaluator uses is a 409 in_use problem to delete; 204 once it is free', async () => {
    const client = h.sdk();
    const agent = await makeAgent(client);
    const scenario = await makeScenario(client, { agent_id: agent.id });
    const [persona] = (await client.personas.list({ is_custom: false })).items;
    const evaluator = await client.evaluators.create({
      agent_id: agent.id,
      scenario_id: scenario.id,
      persona_id: persona!.id,
    });
    await expectApiError(client.agents.delete(agent.id), ConflictError, 409, 'in_use');
    await client.evaluators.delete(evaluator.id);
    await expect(client.agents.delete(agent.id)).resolves.toBeUndefined();
    await expect(client.scenarios.get(scenario.id)).resolves.toMatchObject({ agent_id: null });
    await expectApiError(client.agents.get(agent.id), NotFoundError, 404, 'not_found');
  });

  it('unknown ids are 404 problems; readers cannot create', async () => {
    await expectApiError(h.sdk().agents.delete(randomUUID()), NotFoundError, 404, 'not_found');
    await expectApiError(makeAgent(await h.sdkAs('READER')), PermissionDeniedError, 403, 'forbidden');
  });
});
