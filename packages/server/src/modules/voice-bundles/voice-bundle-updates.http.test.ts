import { beforeAll, describe, expect, it } from 'vitest';
import { expectProblem } from '../../../test/access-rules.js';
import {
  CASCADED,
  makeBundle,
  makeCredential,
  uniqueName,
  useBundle,
} from '../../../test/factories/voice-bundles.js';
import { createHarness, type Harness } from '../../../test/harness.js';

let h: Harness;
beforeAll(async () => {
  h = await createHarness();
});

describe('update', () => {
  it('applies a partial update; a bundle no agent uses may lose a required field and says so', async () => {
    const bundle = await makeBundle(h, h);
    const headers = await h.as('MEMBER');
    const path = `/api/v1/voicebundles/${bundle.id}`;
    const renamed = await h.request('PATCH', path, {
      headers,
      body: { name: 'Renamed', llm_config: { seed: 7 } },
    });
    expect(renamed.status).toBe(200);
    expect(renamed.body).toMatchObject({ name: 'Renamed', llm_config: { seed: 7 }, stt_model: 'whisper-1' });
    const cleared = await h.request('PATCH', path, { headers, body: { tts_model: null } });
    expect(cleared.status).toBe(200);
    expect(cleared.body).toMatchObject({ tts_model: null, missing_fields: ['tts_model'] });
  });

  it('a bundle an agent uses must stay complete (422 listing the fields, nothing changed)', async () => {
    const bundle = await makeBundle(h, h);
    await useBundle(h, h, bundle.id);
    const headers = await h.as('MEMBER');
    const path = `/api/v1/voicebundles/${bundle.id}`;
    const cleared = await h.request('PATCH', path, { headers, body: { tts_model: null, name: 'Changed' } });
    expectProblem(cleared, 422, 'rule_violation');
    expect(cleared.body.errors).toEqual([
      { path: 'body.tts_model', message: 'Required for a stt_llm_tts bundle' },
    ]);
    const retyped = await h.request('PATCH', path, { headers, body: { bundle_type: 's2s' } });
    expectProblem(retyped, 422, 'rule_violation');
    expect(retyped.body.errors.map((e: { path: string }) => e.path)).toEqual([
      'body.s2s_provider',
      'body.s2s_model',
    ]);
    const stored = (await h.request('GET', path, { headers })).body;
    expect(stored).toMatchObject({ name: bundle.name, tts_model: CASCADED.tts_model, missing_fields: [] });
    // a change that keeps it complete is fine
    const switched = await h.request('PATCH', path, {
      headers,
      body: { bundle_type: 's2s', s2s_provider: 'openai', s2s_model: 'gpt-4o-realtime-preview' },
    });
    expect(switched.status, JSON.stringify(switched.body)).toBe(200);
  });

  it('changing bundle_type clears the components the new type does not use and reports its own as missing', async () => {
    const bundle = await makeBundle(h, h, { llm_config: { seed: 1 } });
    const headers = await h.as('MEMBER');
    const path = `/api/v1/voicebundles/${bundle.id}`;
    const retyped = await h.request('PATCH', path, { headers, body: { bundle_type: 's2s' } });
    expect(retyped.status).toBe(200);
    expect(retyped.body).toMatchObject({
      bundle_type: 's2s',
      stt_provider: null,
      llm_model: null,
      llm_temperature: null,
      llm_config: {},
      tts_voice: null,
      missing_fields: ['s2s_provider', 's2s_model'],
    });
    const changed = await h.request('PATCH', path, {
      headers,
      body: { s2s_provider: 'openai', s2s_model: 'gpt-4o-realtime-preview' },
    });
    expect(changed.status).toBe(200);
    expect(changed.body).toMatchObject({ s2s_model: 'gpt-4o-realtime-preview', missing_fields: [] });
    const stray = await h.request('PATCH', path, { headers, body: { bundle_type: 'llm', tts_model: 'x' } });
    expectProblem(stray, 422, 'rule_violation');
    expect(stray.body.errors.map((e: { path: string }) => e.path)).toEqual(['body.tts_model']);
  });

  it('checks credential ids set by an update', async () => {
    const bundle = await makeBundle(h, h);
    const other = await h.createTenant();
    const reply = await h.request('PATCH', `/api/v1/voicebundles/${bundle.id}`, {
      headers: await h.as('MEMBER'),
      body: { llm_credential_id: await makeCredential(h, other) },
    });
    expectProblem(reply, 422, 'rule_violation');
    const mine = await makeCredential(h, h);
    const ok = await h.request('PATCH', `/api/v1/voicebundles/${bundle.id}`, {
      headers: await h.as('MEMBER'),
      body: { llm_credential_id: mine },
    });
    expect(ok.body.llm_credential_id).toBe(mine);
  });
});

describe('list, delete and isolation', () => {
  it('lists newest first with type, active and name filters', async () => {
    const tag = Math.random().toString(36).slice(2, 8);
    const a = await makeBundle(h, h, { name: `List ${tag} a` });
    const b = await makeBundle(h, h, {
      name: `List ${tag} b`,
      bundle_type: 'llm',
      stt_provider: null,
      stt_model: null,
      tts_provider: null,
      tts_model: null,
      tts_voice: null,
      is_active: false,
    });
    const headers = await h.as('READER');
    const all = await h.request('GET', `/api/v1/voicebundles?q=${tag}`, { headers });
    expect(all.body.items.map((x: { id: string }) => x.id)).toEqual([b.id, a.id]);
    const llm = await h.request('GET', `/api/v1/voicebundles?q=${tag}&bundle_type=llm`, { headers });
    expect(llm.body.items.map((x: { id: string }) => x.id)).toEqual([b.id]);
    const active = await h.request('GET', `/api/v1/voicebundles?q=${tag}&is_active=true`, { headers });
    expect(active.body.items.map((x: { id: string }) => x.id)).toEqual([a.id]);
    expectProblem(await h.request('GET', '/api/v1/voicebundles?is_active=yes', { headers }), 422);
  });

  it('deletes a bundle (204), then 404', async () => {
    const bundle = await makeBundle(h, h);
    const headers = await h.as('MEMBER');
    expect((await h.request('DELETE', `/api/v1/voicebundles/${bundle.id}`, { headers })).status).toBe(204);
    expectProblem(await h.request('GET', `/api/v1/voicebundles/${bundle.id}`, { headers }), 404, 'not_found');
    expectProblem(
      await h.request('DELETE', `/api/v1/voicebundles/${bundle.id}`, { headers }),
      404,
      'not_found',
    );
  });

  it('refuses to delete a bundle an agent uses (409 in_use)', async () => {
    const bundle = await makeBundle(h, h);
    await h.db('agents').insert({
      organization_id: h.organizationId,
      workspace_id: h.workspaceId,
      name: uniqueName('Agent'),
      call_type: 'inbound',
      call_medium: 'phone',
      voice_bundle_id: bundle.id,
      created_by: 'test',
    });
    const reply = await h.request('DELETE', `/api/v1/voicebundles/${bundle.id}`, {
      headers: await h.as('MEMBER'),
    });
    expectProblem(reply, 409, 'in_use');
    expect(await h.db('voice_bundles').where({ id: bundle.id }).first()).toBeTruthy();
  });

  it("keeps other organizations' and other workspaces' bundles out of reach", async () => {
    const other = await h.createTenant();
    const theirs = await makeBundle(h, other);
    const headers = await h.as('OWNER');
    const list = await h.request('GET', '/api/v1/voicebundles?page_size=100', { headers });
    expect(list.body.items.map((x: { id: string }) => x.id)).not.toContain(theirs.id);
    expectProblem(
      await h.request('PATCH', `/api/v1/voicebundles/${theirs.id}`, { headers, body: { name: 'mine now' } }),
      404,
    );
    const mine = await makeBundle(h, h);
    const ws = await h.request('POST', '/api/v1/workspaces', { headers, body: { name: uniqueName('ws') } });
    const fromWs = { ...headers, 'x-workspace-id': ws.body.id };
    expectProblem(await h.request('GET', `/api/v1/voicebundles/${mine.id}`, { headers: fromWs }), 404);
    expect((await h.request('GET', '/api/v1/voicebundles', { headers: fromWs })).body.total).toBe(0);
    expect((await h.db('voice_bundles').where({ id: theirs.id }).first()).name).toBe(theirs.name);
  });
});
