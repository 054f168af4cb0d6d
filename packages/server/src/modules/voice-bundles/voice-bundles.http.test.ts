import { VoiceBundleSchema } from '@voice-eval/contract';
import { beforeAll, describe, expect, it } from 'vitest';
import { describeAccessRules, expectProblem } from '../../../test/access-rules.js';
import { CASCADED, makeBundle, makeCredential, uniqueName } from '../../../test/factories/voice-bundles.js';
import { createHarness, type Harness } from '../../../test/harness.js';

let h: Harness;
beforeAll(async () => {
  h = await createHarness();
});

describeAccessRules(
  () => h,
  [
    {
      route: 'POST /api/v1/voicebundles',
      minRole: 'MEMBER',
      request: async () => ({ path: '/api/v1/voicebundles', body: { name: uniqueName(), ...CASCADED } }),
    },
    {
      route: 'GET /api/v1/voicebundles',
      minRole: 'READER',
      request: async () => ({ path: '/api/v1/voicebundles' }),
    },
    {
      route: 'GET /api/v1/voicebundles/:voice_bundle_id',
      minRole: 'READER',
      scoped: true,
      request: async (tenant) => ({ path: `/api/v1/voicebundles/${(await makeBundle(h, tenant)).id}` }),
    },
    {
      route: 'PATCH /api/v1/voicebundles/:voice_bundle_id',
      minRole: 'MEMBER',
      scoped: true,
      request: async (tenant) => ({
        path: `/api/v1/voicebundles/${(await makeBundle(h, tenant)).id}`,
        body: { description: 'changed' },
      }),
    },
    {
      route: 'DELETE /api/v1/voicebundles/:voice_bundle_id',
      minRole: 'MEMBER',
      scoped: true,
      request: async (tenant) => ({ path: `/api/v1/voicebundles/${(await makeBundle(h, tenant)).id}` }),
    },
  ],
);

describe('create', () => {
  it('creates a cascaded bundle with defaults for the fields not given', async () => {
    const bundle = await makeBundle(h, h);
    expect(bundle).toMatchObject({
      ...CASCADED,
      description: '',
      llm_config: {},
      tts_config: {},
      s2s_provider: null,
      s2s_model: null,
      s2s_config: {},
      stt_credential_id: null,
      extra_metadata: {},
      is_active: true,
    });
    expect(bundle.created_by).toContain('@');
  });

  it('creates a bundle from its name alone (the spec): an stt_llm_tts bundle listing the six fields it lacks', async () => {
    const reply = await h.request('POST', '/api/v1/voicebundles', {
      headers: await h.as('MEMBER'),
      body: { name: 'Only a name' },
    });
    expect(reply.status, JSON.stringify(reply.body)).toBe(201);
    expect(VoiceBundleSchema.parse(reply.body)).toMatchObject({
      name: 'Only a name',
      description: '',
      bundle_type: 'stt_llm_tts',
      stt_provider: null,
      llm_config: {},
      is_active: true,
      missing_fields: ['stt_provider', 'stt_model', 'llm_provider', 'llm_model', 'tts_provider', 'tts_model'],
    });
  });

  it('reports what a partly configured bundle still lacks, and nothing for a complete one', async () => {
    const headers = await h.as('MEMBER');
    const partial = await h.request('POST', '/api/v1/voicebundles', {
      headers,
      body: { name: uniqueName(), stt_provider: 'openai', stt_model: 'whisper-1' },
    });
    expect(partial.status).toBe(201);
    expect(partial.body.missing_fields).toEqual(['llm_provider', 'llm_model', 'tts_provider', 'tts_model']);
    const s2s = await h.request('POST', '/api/v1/voicebundles', {
      headers,
      body: { name: uniqueName(), bundle_type: 's2s', s2s_provider: 'openai' },
    });
    expect(s2s.body.missing_fields).toEqual(['s2s_model']);
    expect((await makeBundle(h, h)).missing_fields).toEqual([]);
    // the field is read, not stored: a list shows it too
    const listed = await h.request('GET', `/api/v1/voicebundles?q=${encodeURIComponent(partial.body.name)}`, {
      headers,
    });
    expect(listed.body.items[0].missing_fields).toEqual(partial.body.missing_fields);
  });

  it.each([
    ['s2s', { s2s_provider: 'openai', s2s_model: 'gpt-4o-realtime-preview', s2s_config: { voice: 'alloy' } }],
    ['stt', { stt_provider: 'deepgram', stt_model: 'nova-2' }],
    ['llm', { llm_provider: 'groq', llm_model: 'llama-3.1-8b-instant', llm_config: { top_p: 0.9 } }],
    ['tts', { tts_provider: 'cartesia', tts_model: 'sonic', tts_voice: null }],
  ])('accepts a %s bundle with just its own fields', async (bundleType, fields) => {
    const reply = await h.request('POST', '/api/v1/voicebundles', {
      headers: await h.as('MEMBER'),
      body: { name: uniqueName(), bundle_type: bundleType, ...fields },
    });
    expect(reply.status, JSON.stringify(reply.body)).toBe(201);
    expect(reply.body).toMatchObject({ bundle_type: bundleType, ...fields });
  });

  it('refuses fields of components the type does not use (422), but accepts them null or empty', async () => {
    const headers = await h.as('MEMBER');
    const base = {
      name: uniqueName(),
      bundle_type: 's2s',
      s2s_provider: 'openai',
      s2s_model: 'gpt-4o-realtime-preview',
    };
    const reply = await h.request('POST', '/api/v1/voicebundles', {
      headers,
      body: { ...base, llm_model: 'gpt-4o', tts_config: { speed: 1.2 } },
    });
    expectProblem(reply, 422, 'rule_violation');
    expect(reply.body.errors.map((e: { path: string }) => e.path)).toEqual([
      'body.llm_model',
      'body.tts_config',
    ]);
    const ok = await h.request('POST', '/api/v1/voicebundles', {
      headers,
      body: { ...base, llm_model: null, tts_config: {} },
    });
    expect(ok.status).toBe(201);
  });

  it('accepts credentials of the organization and refuses unknown or foreign ones (422)', async () => {
    const mine = await makeCredential(h, h);
    const other = await h.createTenant();
    const theirs = await makeCredential(h, other);
    const bundle = await makeBundle(h, h, { llm_credential_id: mine });
    expect(bundle.llm_credential_id).toBe(mine);
    const reply = await h.request('POST', '/api/v1/voicebundles', {
      headers: await h.as('MEMBER'),
      body: {
        name: uniqueName(),
        ...CASCADED,
        stt_credential_id: theirs,
        tts_credential_id: '6f1c1f60-3f0c-4b7a-9a53-6d3c0f1b2a10',
      },
    });
    expectProblem(reply, 422, 'rule_violation');
    expect(reply.body.errors.map((e: { path: string }) => e.path)).toEqual([
      'body.stt_credential_id',
      'body.tts_credential_id',
    ]);
  });

  it('validates types and ranges against the contract (422)', async () => {
    const reply = await h.request('POST', '/api/v1/voicebundles', {
      headers: await h.as('MEMBER'),
      body: { name: uniqueName(), ...CASCADED, bundle_type: 'video', llm_temperature: 3 },
    });
    expectProblem(reply, 422, 'validation_failed');
  });
});
