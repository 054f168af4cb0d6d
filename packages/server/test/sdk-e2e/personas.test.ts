/** Server, contract and SDK agree on personas: defaults, built-ins, background noise, ambient audio. */
import { ApiError, ConflictError, PermissionDeniedError, UnprocessableEntityError } from '@voice-eval/sdk';
import { beforeAll, describe, expect, it } from 'vitest';
import { setPlan } from '../../src/commands/set-plan.js';
import { expectApiError, expectPagination } from './conformance.js';
import { makePersona } from './fixtures.js';
import { createSdkHarness, type SdkHarness } from './sdk-harness.js';

let h: SdkHarness;
beforeAll(async () => {
  h = await createSdkHarness();
});

/** A WAV header and some samples: enough for the server's magic-byte check. */
const wav = () => {
  const bytes = Buffer.alloc(1024);
  bytes.write('RIFF', 0);
  bytes.writeUInt32LE(1016, 4);
  bytes.write('WAVEfmt ', 8);
  return new Uint8Array(bytes);
};

describe('personas', () => {
  it('create fills defaults; built-in personas list beside custom ones, across pages', async () => {
    const client = h.sdk({}, await h.createTenant());
    const persona = await makePersona(client);
    expect(persona).toMatchObject({
      is_custom: true,
      gender: 'neutral',
      max_turns: 40,
      background_noise_source: 'none',
    });
    await expect(client.personas.get(persona.id)).resolves.toEqual(persona);
    const builtIn = await client.personas.list({ is_custom: false, page_size: 100 });
    expect(builtIn.total).toBeGreaterThan(0);
    const all = await client.personas.list({ page_size: 100 });
    expect(all.total).toBe(builtIn.total + 1);
    await expectPagination(
      (q) => client.personas.list(q),
      all.items.map((p) => p.id),
      2,
    );
  });

  it('built-in personas are read-only: 403 problems', async () => {
    const client = h.sdk();
    const [builtIn] = (await client.personas.list({ is_custom: false })).items;
    await expectApiError(
      client.personas.update(builtIn!.id, { max_turns: 3 }),
      PermissionDeniedError,
      403,
      'forbidden',
    );
    await expectApiError(client.personas.delete(builtIn!.id), PermissionDeniedError, 403, 'forbidden');
  });

  it('background noise rules are 422 problems; duplicates 409', async () => {
    const client = h.sdk();
    await expectApiError(
      makePersona(client, { background_noise_source: 'preset' }),
      UnprocessableEntityError,
      422,
      'rule_violation',
    );
    const cafe = await makePersona(client, { background_noise_preset: 'cafe' });
    expect(cafe).toMatchObject({ background_noise_source: 'preset', background_noise_preset: 'cafe' });
    await expect(client.personas.update(cafe.id, { background_noise_source: 'none' })).resolves.toMatchObject(
      {
        background_noise_preset: null,
      },
    );
    await expectApiError(makePersona(client, { name: cafe.name }), ConflictError, 409, 'conflict');
  });

  it('ambient audio uploads through the SDK on plans that have it; the free plan gets a 403 problem', async () => {
    const client = h.sdk();
    const persona = await makePersona(client);
    const file = { data: wav(), filename: 'noise.wav' };
    await expectApiError(
      client.personas.uploadAmbientAudio(persona.id, file),
      PermissionDeniedError,
      403,
      'feature_not_available',
    );
    await setPlan(h.db, h.organizationId, 'enterprise');
    h.server.deps.authCache.clear();
    const uploaded = await client.personas.uploadAmbientAudio(persona.id, file);
    expect(uploaded).toMatchObject({ background_noise_source: 'custom', background_noise_preset: null });
    expect(uploaded.background_noise_storage_key).toMatch(/\.wav$/);
    const text = { data: new TextEncoder().encode('not audio at all'), filename: 'noise.wav' };
    const refused = await expectApiError(
      client.personas.uploadAmbientAudio(persona.id, text),
      ApiError,
      415,
      'unsupported_media_type',
    );
    expect(refused.constructor).toBe(ApiError);
    await expect(client.personas.deleteAmbientAudio(persona.id)).resolves.toMatchObject({
      background_noise_source: 'none',
      background_noise_storage_key: null,
    });
  });
});
