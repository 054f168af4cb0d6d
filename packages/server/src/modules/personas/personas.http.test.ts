import { beforeAll, describe, expect, it } from 'vitest';
import { describeAccessRules, expectProblem } from '../../../test/access-rules.js';
import { makePersona } from '../../../test/factories/evaluators.js';
import { createHarness, type Harness } from '../../../test/harness.js';

let h: Harness;
beforeAll(async () => {
  h = await createHarness();
});

let seq = 0;

describeAccessRules(
  () => h,
  [
    { route: 'GET /api/v1/personas', minRole: 'READER', request: async () => ({ path: '/api/v1/personas' }) },
    {
      route: 'POST /api/v1/personas',
      minRole: 'MEMBER',
      request: async () => ({
        path: '/api/v1/personas',
        body: { name: `Rule ${++seq}`, tts_provider: 'openai', tts_voice_id: 'alloy' },
      }),
    },
    {
      route: 'GET /api/v1/personas/:persona_id',
      minRole: 'READER',
      scoped: true,
      request: async (t) => ({ path: `/api/v1/personas/${(await makePersona(h, t)).id}` }),
    },
    {
      route: 'PATCH /api/v1/personas/:persona_id',
      minRole: 'MEMBER',
      scoped: true,
      request: async (t) => ({
        path: `/api/v1/personas/${(await makePersona(h, t)).id}`,
        body: { max_turns: 12 },
      }),
    },
    {
      route: 'DELETE /api/v1/personas/:persona_id',
      minRole: 'MEMBER',
      scoped: true,
      request: async (t) => ({ path: `/api/v1/personas/${(await makePersona(h, t)).id}` }),
    },
  ],
);

describe('personas', () => {
  it('fills sensible defaults and lists built-in personas beside the custom ones', async () => {
    const t = await h.createTenant();
    const persona = await makePersona(h, t, { name: 'Nervous Ned' });
    expect(persona).toMatchObject({
      gender: 'neutral',
      is_custom: true,
      tts_voice_name: null,
      description: '',
      tts_config: {},
      llm_temperature: 0.7,
      llm_max_tokens: 512,
      response_delay_ms: 500,
      max_turns: 40,
      allow_interruptions: true,
      background_noise_source: 'none',
      background_noise_preset: null,
      background_noise_volume: 0.2,
      background_noise_storage_key: null,
      background_noise_asset_id: null,
    });
    const headers = await t.as('READER');
    const builtIn = await h.request('GET', '/api/v1/personas?is_custom=false', { headers });
    expect(builtIn.body.total).toBe(5);
    const all = await h.request('GET', '/api/v1/personas?page_size=100', { headers });
    expect(all.body.total).toBe(6);
    const other = await h.createTenant();
    const theirs = await h.request('GET', '/api/v1/personas?is_custom=true', {
      headers: await other.as('READER'),
    });
    expect(theirs.body.total).toBe(0);
  });

  it('built-in personas are readable but read-only (403)', async () => {
    const t = await h.createTenant();
    const headers = await t.as('OWNER');
    const builtIn = (await h.request('GET', '/api/v1/personas?is_custom=false', { headers })).body.items[0];
    expect((await h.request('GET', `/api/v1/personas/${builtIn.id}`, { headers })).status).toBe(200);
    expectProblem(
      await h.request('PATCH', `/api/v1/personas/${builtIn.id}`, { headers, body: { max_turns: 3 } }),
      403,
      'forbidden',
    );
    expectProblem(await h.request('DELETE', `/api/v1/personas/${builtIn.id}`, { headers }), 403, 'forbidden');
  });

  it('background noise: a preset needs a preset name, custom needs an upload', async () => {
    const t = await h.createTenant();
    const headers = await t.as('MEMBER');
    const bad = await h.request('POST', '/api/v1/personas', {
      headers,
      body: {
        name: 'No preset',
        tts_provider: 'openai',
        tts_voice_id: 'nova',
        background_noise_source: 'preset',
      },
    });
    expectProblem(bad, 422, 'rule_violation');
    const cafe = await makePersona(h, t, { background_noise_preset: 'cafe' });
    expect(cafe).toMatchObject({ background_noise_source: 'preset', background_noise_preset: 'cafe' });
    const quiet = await h.request('PATCH', `/api/v1/personas/${cafe.id}`, {
      headers,
      body: { background_noise_source: 'none' },
    });
    expect(quiet.body).toMatchObject({ background_noise_source: 'none', background_noise_preset: null });
    expectProblem(
      await h.request('PATCH', `/api/v1/personas/${cafe.id}`, {
        headers,
        body: { background_noise_source: 'custom' },
      }),
      422,
      'rule_violation',
    );
  });

  it('a duplicate name in the workspace is 409', async () => {
    const t = await h.createTenant();
    await makePersona(h, t, { name: 'Twin' });
    expectProblem(
      await h.request('POST', '/api/v1/personas', {
        headers: await t.as('MEMBER'),
        body: { name: 'TWIN', tts_provider: 'openai', tts_voice_id: 'nova' },
      }),
      409,
      'conflict',
    );
  });
});
