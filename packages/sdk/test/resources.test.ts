import { contract } from '@voice-eval/contract';
import { describe, expect, it } from 'vitest';
import { VoiceEval } from '../src/index.js';
import { BASE_URL, recordRequests, useMockApi } from './helpers.js';

// Built before MSW starts listening: fetch must be looked up per request, not captured here.
const early = new VoiceEval({ baseUrl: BASE_URL, apiKey: 'k', logLevel: 'off', maxRetries: 0 });
const { api, server, client } = useMockApi();
const seen = recordRequests(server);

describe('namespaces', () => {
  it('has a method for every contract route', () => {
    const c = new VoiceEval({ baseUrl: BASE_URL, apiKey: 'k' }) as unknown as Record<
      string,
      Record<string, unknown>
    >;
    const missing = Object.entries(contract).flatMap(([area, routes]) =>
      Object.keys(routes)
        .filter((name) => typeof c[area]?.[name] !== 'function')
        .map((name) => `${area}.${name}`),
    );
    expect(missing).toEqual([]);
  });

  it('resolves fetch at call time, so MSW started later still intercepts', async () => {
    await expect(early.workspaces.list()).resolves.toMatchObject({ total: 1 });
  });

  it('uses a custom fetch when given one', async () => {
    const calls: string[] = [];
    const fetch = (input: Request | URL | string, init?: RequestInit) => {
      calls.push(input instanceof Request ? input.url : String(input));
      return globalThis.fetch(input, init);
    };
    await client({ fetch }).tags.list();
    expect(calls).toEqual([`${BASE_URL}/api/v1/tags`]);
  });

  it('encodes path parameters', async () => {
    await client().auth.invitationPreview('a/b?c#d e');
    expect(seen[0]?.url.pathname).toBe('/api/v1/auth/invitations/preview/a%2Fb%3Fc%23d%20e');
  });

  it('sends queries as flat strings with repeated keys for arrays', async () => {
    const tag = '00000000-0000-4000-8000-00000000000a';
    await client().callImports.list({ tag_id: [tag, tag], status: 'completed', page: 2, page_size: 5 });
    await client().apiKeys.list({ include_revoked: true });
    expect(seen[0]?.url.search).toBe(`?tag_id=${tag}&tag_id=${tag}&status=completed&page=2&page_size=5`);
    expect(seen[1]?.url.search).toBe('?include_revoked=true');
  });
});

describe('CRUD through the default handlers', () => {
  it('create, get, update, list and delete an agent', async () => {
    const c = client();
    const agent = await c.agents.create({ name: 'Front desk', call_type: 'inbound', call_medium: 'web' });
    expect(agent).toMatchObject({ name: 'Front desk', call_medium: 'web', phone_number: '+15555550100' });
    await expect(c.agents.get(agent.id)).resolves.toEqual(agent);
    const renamed = await c.agents.update(agent.id, { name: 'Reception' });
    expect(renamed.name).toBe('Reception');
    expect(renamed.updated_at > agent.updated_at).toBe(true);
    expect((await c.agents.list()).items.map((a) => a.name)).toEqual(['Reception']);
    await c.agents.delete(agent.id);
    await expect(c.agents.get(agent.id)).rejects.toMatchObject({ status: 404 });
  });

  it('metrics: drafts are hidden until promoted', async () => {
    const c = client();
    const draft = await c.metrics.createDraft({ name: 'Empathy' });
    expect(draft.lifecycle).toBe('draft');
    expect((await c.metrics.list()).total).toBe(0);
    expect((await c.metrics.list({ lifecycle: 'draft' })).total).toBe(1);
    const promoted = await c.metrics.promote(draft.id);
    expect(promoted).toMatchObject({ lifecycle: 'active', promoted_from_draft_at: expect.any(String) });
    expect((await c.metrics.list()).total).toBe(1);
  });

  it('AI providers: keys come back masked; test reports a result', async () => {
    const c = client();
    const provider = await c.aiProviders.create({
      provider: 'openai',
      name: 'Main',
      api_key: 'sk-live-1234567890',
    });
    expect(provider.api_key).toBe('sk-...7890');
    await expect(c.aiProviders.test(provider.id)).resolves.toMatchObject({ ok: true });
    await expect(c.aiProviders.get(provider.id)).resolves.toMatchObject({
      last_tested_at: expect.any(String),
    });
  });

  it('API keys: generated keys are listed, revoked keys hidden', async () => {
    const c = client();
    const created = await c.auth.generateKey({ name: 'CI' });
    expect(created.key).toMatch(/^ve_live_/);
    expect((await c.apiKeys.list()).items.map((k) => k.name)).toEqual(['CI']);
    await c.apiKeys.revoke(created.id);
    expect((await c.apiKeys.list()).total).toBe(0);
    expect((await c.apiKeys.list({ include_revoked: true })).items[0]?.revoked_at).toEqual(
      expect.any(String),
    );
  });

  it('domain actions answer contract-valid bodies', async () => {
    const c = client();
    await expect(c.metrics.generate({ mode: 'description', input: 'politeness' })).resolves.toMatchObject({
      name: expect.any(String),
    });
    await expect(c.metrics.parseBulk({ prompt: 'label A: ...' })).resolves.toEqual({
      metrics: [],
      parent: null,
    });
    await expect(c.evaluatorResults.failurePolicies()).resolves.toMatchObject({
      failure_policies_source: 'inferred',
    });
    await expect(c.callImports.dispatchDiagnostics()).resolves.toMatchObject({ workspaces: [] });
    await expect(c.invitations.create({ email: 'new@example.test', role: 'MEMBER' })).resolves.toMatchObject({
      email: 'new@example.test',
      token: expect.any(String),
    });
    await expect(c.invitations.accept({ token: 't', password: 'long enough' })).resolves.toMatchObject({
      token_type: 'Bearer',
    });
  });

  it('evaluators.bulk creates one evaluator per persona', async () => {
    const ids = ['00000000-0000-4000-8000-0000000000a1', '00000000-0000-4000-8000-0000000000a2'];
    const created = await client().evaluators.bulk({
      agent_id: '00000000-0000-4000-8000-000000000001',
      scenario_id: '00000000-0000-4000-8000-000000000002',
      persona_ids: ids,
    });
    expect(created.map((e) => e.persona_id)).toEqual(ids);
    expect(api.db.evaluators.size).toBe(2);
  });
});
