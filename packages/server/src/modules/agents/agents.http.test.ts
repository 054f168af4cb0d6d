import { beforeAll, describe, expect, it } from 'vitest';
import { describeAccessRules, expectProblem } from '../../../test/access-rules.js';
import { makeAgent } from '../../../test/factories/evaluators.js';
import { createHarness, type Harness, type Tenant } from '../../../test/harness.js';

let h: Harness;
beforeAll(async () => {
  h = await createHarness();
});

let seq = 0;

/** A voice bundle row of the tenant's default workspace (the voice-bundles module owns its API). */
const insertVoiceBundle = async (t: Tenant, workspaceId = t.workspaceId) => {
  const [row] = await h
    .db('voice_bundles')
    .insert({
      organization_id: t.organizationId,
      workspace_id: workspaceId,
      name: `Bundle ${++seq}`,
      bundle_type: 'tts',
      tts_provider: 'elevenlabs',
      tts_model: 'eleven_turbo_v2',
      created_by: 'test',
    })
    .returning('id');
  return row.id as string;
};

describeAccessRules(
  () => h,
  [
    { route: 'GET /api/v1/agents', minRole: 'READER', request: async () => ({ path: '/api/v1/agents' }) },
    {
      route: 'POST /api/v1/agents',
      minRole: 'MEMBER',
      request: async () => ({
        path: '/api/v1/agents',
        body: { name: `Rule ${++seq}`, call_type: 'outbound', call_medium: 'web' },
      }),
    },
    {
      route: 'GET /api/v1/agents/:agent_id',
      minRole: 'READER',
      scoped: true,
      request: async (t) => ({ path: `/api/v1/agents/${(await makeAgent(h, t)).id}` }),
    },
    {
      route: 'PATCH /api/v1/agents/:agent_id',
      minRole: 'MEMBER',
      scoped: true,
      request: async (t) => ({
        path: `/api/v1/agents/${(await makeAgent(h, t)).id}`,
        body: { description: 'x' },
      }),
    },
    {
      route: 'DELETE /api/v1/agents/:agent_id',
      minRole: 'MEMBER',
      scoped: true,
      request: async (t) => ({ path: `/api/v1/agents/${(await makeAgent(h, t)).id}` }),
    },
  ],
);

describe('agents', () => {
  it('creates with defaults, stamps the workspace and the creator, and filters lists', async () => {
    const t = await h.createTenant();
    const agent = await (await t.client('OWNER')).agents.create({
      name: 'Billing bot',
      call_type: 'inbound',
      call_medium: 'phone',
    });
    expect(agent).toMatchObject({
      organization_id: t.organizationId,
      workspace_id: t.workspaceId,
      description: '',
      phone_number: null,
      voice_bundle_id: null,
      created_by: t.owner.user.email,
    });
    await makeAgent(h, t, { name: 'Web helper', call_medium: 'web', call_type: 'outbound' });
    const headers = await t.as('READER');
    const byMedium = await h.request('GET', '/api/v1/agents?call_medium=web', { headers });
    expect(byMedium.body.items.map((a: { name: string }) => a.name)).toEqual(['Web helper']);
    const byName = await h.request('GET', '/api/v1/agents?q=BILL', { headers });
    expect(byName.body).toMatchObject({ total: 1, items: [{ id: agent.id }] });
  });

  it('names are unique per workspace, case-insensitively (409), but may repeat in another workspace', async () => {
    const t = await h.createTenant();
    const headers = await t.as('ADMIN');
    await makeAgent(h, t, { name: 'Concierge' });
    expectProblem(
      await h.request('POST', '/api/v1/agents', {
        headers,
        body: { name: 'CONCIERGE', call_type: 'inbound', call_medium: 'sip' },
      }),
      409,
      'conflict',
    );
    const ws = await h.request('POST', '/api/v1/workspaces', { headers, body: { name: 'Second' } });
    const again = await h.request('POST', '/api/v1/agents', {
      headers: { ...headers, 'x-workspace-id': ws.body.id },
      body: { name: 'Concierge', call_type: 'inbound', call_medium: 'sip' },
    });
    expect(again.status).toBe(201);
    const inDefault = await h.request('GET', `/api/v1/agents/${again.body.id}`, { headers });
    expectProblem(inDefault, 404, 'not_found');
  });

  it('checks phone_number against the medium: E.164 for phone, a SIP URI for sip, none for web', async () => {
    const t = await h.createTenant();
    const headers = await t.as('MEMBER');
    const phone = await makeAgent(h, t, { phone_number: '+14155550100' });
    expect(phone.phone_number).toBe('+14155550100');
    const sip = await makeAgent(h, t, { call_medium: 'sip', phone_number: 'sip:agent@pbx.example.com' });
    expect(sip.call_medium).toBe('sip');
    for (const body of [
      { name: 'Bad phone', call_type: 'inbound', call_medium: 'phone', phone_number: '555-0100' },
      { name: 'Bad web', call_type: 'inbound', call_medium: 'web', phone_number: '+14155550100' },
    ]) {
      expectProblem(await h.request('POST', '/api/v1/agents', { headers, body }), 422, 'rule_violation');
    }
    expectProblem(
      await h.request('PATCH', `/api/v1/agents/${phone.id}`, { headers, body: { call_medium: 'web' } }),
      422,
      'rule_violation',
    );
    const cleared = await h.request('PATCH', `/api/v1/agents/${phone.id}`, {
      headers,
      body: { call_medium: 'web', phone_number: null },
    });
    expect(cleared.body).toMatchObject({ call_medium: 'web', phone_number: null });
  });

  it('accepts only a voice bundle of the workspace', async () => {
    const t = await h.createTenant();
    const bundle = await insertVoiceBundle(t);
    const agent = await makeAgent(h, t, { voice_bundle_id: bundle });
    expect(agent.voice_bundle_id).toBe(bundle);
    const other = await h.createTenant();
    const foreign = await insertVoiceBundle(other);
    expectProblem(
      await h.request('PATCH', `/api/v1/agents/${agent.id}`, {
        headers: await t.as('MEMBER'),
        body: { voice_bundle_id: foreign },
      }),
      404,
      'not_found',
    );
  });

  it('refuses a voice bundle that lacks what its type needs (422 naming the fields), on create and update', async () => {
    const t = await h.createTenant();
    const headers = await t.as('MEMBER');
    const bare = await h.request('POST', '/api/v1/voicebundles', {
      headers,
      body: { name: `Bare ${++seq}` },
    });
    expect(bare.status).toBe(201);
    const refused = await h.request('POST', '/api/v1/agents', {
      headers,
      body: {
        name: `Agent ${++seq}`,
        call_type: 'inbound',
        call_medium: 'phone',
        voice_bundle_id: bare.body.id,
      },
    });
    expectProblem(refused, 422, 'rule_violation');
    expect(refused.body.errors).toEqual([
      {
        path: 'body.voice_bundle_id',
        message:
          'The stt_llm_tts voice bundle lacks stt_provider, stt_model, llm_provider, llm_model, tts_provider, tts_model',
      },
    ]);
    const agent = await makeAgent(h, t);
    expectProblem(
      await h.request('PATCH', `/api/v1/agents/${agent.id}`, {
        headers,
        body: { voice_bundle_id: bare.body.id },
      }),
      422,
      'rule_violation',
    );
    expect(
      (await h.request('GET', `/api/v1/agents/${agent.id}`, { headers })).body.voice_bundle_id,
    ).toBeNull();
    // completed, the same bundle is accepted
    await h.request('PATCH', `/api/v1/voicebundles/${bare.body.id}`, {
      headers,
      body: {
        stt_provider: 'openai',
        stt_model: 'whisper-1',
        llm_provider: 'openai',
        llm_model: 'gpt-4o-mini',
        tts_provider: 'openai',
        tts_model: 'tts-1',
      },
    });
    const patched = await h.request('PATCH', `/api/v1/agents/${agent.id}`, {
      headers,
      body: { voice_bundle_id: bare.body.id },
    });
    expect(patched.status, JSON.stringify(patched.body)).toBe(200);
  });

  it('delete is 409 in_use while an evaluator uses the agent, 204 after', async () => {
    const t = await h.createTenant();
    const headers = await t.as('MEMBER');
    const agent = await makeAgent(h, t);
    const scenario = await h.request('POST', '/api/v1/scenarios', {
      headers,
      body: { name: 'Refund', agent_id: agent.id },
    });
    const personas = await h.request('GET', '/api/v1/personas?is_custom=false', { headers });
    const evaluator = await h.request('POST', '/api/v1/evaluators', {
      headers,
      body: { agent_id: agent.id, scenario_id: scenario.body.id, persona_id: personas.body.items[0].id },
    });
    expect(evaluator.status).toBe(201);
    expectProblem(await h.request('DELETE', `/api/v1/agents/${agent.id}`, { headers }), 409, 'in_use');
    await h.request('DELETE', `/api/v1/evaluators/${evaluator.body.id}`, { headers });
    expect((await h.request('DELETE', `/api/v1/agents/${agent.id}`, { headers })).status).toBe(204);
    const orphan = await h.request('GET', `/api/v1/scenarios/${scenario.body.id}`, { headers });
    expect(orphan.body.agent_id).toBeNull();
  });
});
