import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { NotFoundError, UnprocessableEntityError } from '../src/index.js';
import { useMockApi } from './helpers.js';

const { api, client } = useMockApi();

const CASCADED = {
  stt_provider: 'openai',
  stt_model: 'whisper-1',
  llm_provider: 'openai',
  llm_model: 'gpt-4o-mini',
  tts_provider: 'openai',
  tts_model: 'tts-1',
};
const agent = (voice_bundle_id: string) =>
  ({ name: 'Agent', call_type: 'inbound', call_medium: 'phone', voice_bundle_id }) as const;

describe('voice bundles in the mock store, as the server treats them', () => {
  it('a name alone creates an stt_llm_tts bundle with cleared fields that lists what it lacks', async () => {
    const bare = await client().voiceBundles.create({ name: 'Bare' });
    expect(bare).toMatchObject({
      bundle_type: 'stt_llm_tts',
      description: '',
      stt_provider: null,
      llm_config: {},
      is_active: true,
      missing_fields: ['stt_provider', 'stt_model', 'llm_provider', 'llm_model', 'tts_provider', 'tts_model'],
    });
    const complete = await client().voiceBundles.update(bare.id, CASCADED);
    expect(complete.missing_fields).toEqual([]);
    await expect(client().voiceBundles.get(bare.id)).resolves.toMatchObject({ missing_fields: [] });
  });

  it('an agent cannot take an incomplete or unknown bundle; a bundle an agent uses stays complete', async () => {
    const c = client();
    const bare = await c.voiceBundles.create({ name: 'Bare', bundle_type: 's2s' });
    const refused = await c.agents.create(agent(bare.id)).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(UnprocessableEntityError);
    expect((refused as UnprocessableEntityError).code).toBe('rule_violation');
    expect((refused as UnprocessableEntityError).errors).toEqual([
      { path: 'body.voice_bundle_id', message: 'The s2s voice bundle lacks s2s_provider, s2s_model' },
    ]);
    await expect(c.agents.create(agent(randomUUID()))).rejects.toBeInstanceOf(NotFoundError);

    await c.voiceBundles.update(bare.id, { s2s_provider: 'openai', s2s_model: 'gpt-4o-realtime-preview' });
    await c.agents.create(agent(bare.id));
    const cleared = await c.voiceBundles.update(bare.id, { s2s_model: null }).catch((e: unknown) => e);
    expect(cleared).toBeInstanceOf(UnprocessableEntityError);
    expect((cleared as UnprocessableEntityError).errors).toEqual([
      { path: 'body.s2s_model', message: 'Required for a s2s bundle' },
    ]);
  });

  it('fields of components the type does not use are refused; a type change clears them', async () => {
    const c = client();
    await expect(
      c.voiceBundles.create({ name: 'Stray', bundle_type: 's2s', tts_model: 'x' }),
    ).rejects.toMatchObject({
      status: 422,
      code: 'rule_violation',
      errors: [{ path: 'body.tts_model', message: 'A s2s bundle does not use tts fields' }],
    });
    const bundle = await c.voiceBundles.create({ name: 'Full', ...CASCADED });
    const retyped = await c.voiceBundles.update(bundle.id, { bundle_type: 'llm' });
    expect(retyped).toMatchObject({
      bundle_type: 'llm',
      stt_model: null,
      tts_model: null,
      llm_model: 'gpt-4o-mini',
    });
    expect(retyped.missing_fields).toEqual([]);
  });

  it('fixtures derive missing_fields from the bundle they build', () => {
    expect(api.fixtures.voiceBundle().missing_fields).toEqual([]);
    expect(api.fixtures.voiceBundle({ tts_model: null, missing_fields: [] }).missing_fields).toEqual([
      'tts_model',
    ]);
  });
});
