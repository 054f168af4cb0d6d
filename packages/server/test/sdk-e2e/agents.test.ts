/**
 * Server, contract and SDK agree on agents: defaults, filters, medium rules, in-use deletes, and
 * connections (write-only secrets, masked answers, the address check at save).
 */
import { randomUUID } from 'node:crypto';
import {
  ConflictError,
  NotFoundError,
  PermissionDeniedError,
  UnprocessableEntityError,
} from '@voice-eval/sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type AgentDouble, startAgentDouble } from '../../src/testing/agent.js';
import { expectApiError, expectPagination } from './conformance.js';
import { CASCADED, makeAgent, makeScenario, unique } from './fixtures.js';
import { createSdkHarness, type SdkHarness } from './sdk-harness.js';

let h: SdkHarness;
let double: AgentDouble;
beforeAll(async () => {
  [h, double] = await Promise.all([createSdkHarness({ fetchAllowlist: ['127.0.0.1'] }), startAgentDouble()]);
});
afterAll(() => double.close());

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

describe('agent connections', () => {
  it('write-only secrets come back as flags; an update without them keeps them; null removes', async () => {
    const client = h.sdk();
    const agent = await makeAgent(client, {
      connection: {
        kind: 'openai_chat',
        base_url: double.chatBaseUrl,
        model: 'clinic-1',
        api_key: 'sk-sdk-0123456789abcdef',
        extra_headers: { 'X-Org': 'org-secret' },
      },
    });
    expect(agent.connection).toEqual({
      kind: 'openai_chat',
      base_url: double.chatBaseUrl,
      model: 'clinic-1',
      has_api_key: true,
      system_prompt: null,
      extra_header_names: ['X-Org'],
    });
    expect(JSON.stringify(await client.agents.get(agent.id))).not.toMatch(/sk-sdk|org-secret/);
    const prompt = await client.agents.update(agent.id, {
      connection: {
        kind: 'openai_chat',
        base_url: double.chatBaseUrl,
        model: 'clinic-2',
        system_prompt: 'Hi',
      },
    });
    expect(prompt.connection).toMatchObject({ model: 'clinic-2', has_api_key: true, system_prompt: 'Hi' });
    const hook = await client.agents.update(agent.id, {
      connection: { kind: 'webhook', url: double.webhookUrl, secret: double.webhookSecret },
    });
    expect(hook.connection).toEqual({ kind: 'webhook', url: double.webhookUrl, has_secret: true });
    await expect(client.agents.update(agent.id, { connection: null })).resolves.toMatchObject({
      connection: null,
    });
  });

  it('a private address or a missing webhook secret is a 422 naming the field', async () => {
    const client = h.sdk();
    const refused = await expectApiError(
      makeAgent(client, {
        connection: { kind: 'webhook', url: 'http://169.254.169.254/hook', secret: double.webhookSecret },
      }),
      UnprocessableEntityError,
      422,
      'rule_violation',
    );
    expect(refused.errors.map((e) => e.path)).toEqual(['body.connection.url']);
    const unsigned = await expectApiError(
      makeAgent(client, { connection: { kind: 'webhook', url: double.webhookUrl } }),
      UnprocessableEntityError,
      422,
      'rule_violation',
    );
    expect(unsigned.errors.map((e) => e.path)).toEqual(['body.connection.secret']);
  });
});
