/** Server, contract and SDK agree on voice bundles: completeness, type rules, filters, pagination, in-use deletes. */
import { randomUUID } from 'node:crypto';
import {
  ConflictError,
  NotFoundError,
  PermissionDeniedError,
  UnprocessableEntityError,
} from '@voice-eval/sdk';
import { beforeAll, describe, expect, it } from 'vitest';
import { expectApiError, expectPagination } from './conformance.js';
import { CASCADED, makeAgent, unique } from './fixtures.js';
import { createSdkHarness, type SdkHarness } from './sdk-harness.js';

let h: SdkHarness;
beforeAll(async () => {
  h = await createSdkHarness();
});

describe('voice bundles', () => {
  it('create, get and a partial update agree with the contract', async () => {
    const client = h.sdk();
    const created = await client.voiceBundles.create({
      name: unique('Bundle'),
      ...CASCADED,
      tts_voice: 'Rachel',
    });
    expect(created).toMatchObject({ ...CASCADED, tts_voice: 'Rachel', s2s_provider: null, is_active: true });
    await expect(client.voiceBundles.get(created.id)).resolves.toEqual(created);
    const updated = await client.voiceBundles.update(created.id, { llm_config: { seed: 7 } });
    expect(updated).toMatchObject({ llm_config: { seed: 7 }, stt_model: 'whisper-1' });
  });

  it('a name alone creates a bundle that reports what it lacks; an agent cannot use it until complete', async () => {
    const client = h.sdk();
    const bare = await client.voiceBundles.create({ name: unique('Bare'), bundle_type: 's2s' });
    expect(bare).toMatchObject({
      bundle_type: 's2s',
      s2s_provider: null,
      missing_fields: ['s2s_provider', 's2s_model'],
    });
    const refused = await expectApiError(
      makeAgent(client, { voice_bundle_id: bare.id }),
      UnprocessableEntityError,
      422,
      'rule_violation',
    );
    expect(refused.errors.map((e) => e.path)).toEqual(['body.voice_bundle_id']);
    const completed = await client.voiceBundles.update(bare.id, {
      s2s_provider: 'openai',
      s2s_model: 'gpt-4o-realtime-preview',
    });
    expect(completed.missing_fields).toEqual([]);
    const agent = await makeAgent(client, { voice_bundle_id: bare.id });
    expect(agent.voice_bundle_id).toBe(bare.id);
  });

  it('type rules and an in-use bundle staying complete are 422 rule_violation problems with field paths', async () => {
    const client = h.sdk();
    const stray = await expectApiError(
      client.voiceBundles.create({ name: unique('Stray'), bundle_type: 's2s', tts_model: 'tts-1' }),
      UnprocessableEntityError,
      422,
      'rule_violation',
    );
    expect(stray.errors).toEqual([
      { path: 'body.tts_model', message: 'A s2s bundle does not use tts fields' },
    ]);
    const bundle = await client.voiceBundles.create({ name: unique('Bundle'), ...CASCADED });
    await makeAgent(client, { voice_bundle_id: bundle.id });
    const cleared = await expectApiError(
      client.voiceBundles.update(bundle.id, { tts_model: null }),
      UnprocessableEntityError,
      422,
      'rule_violation',
    );
    expect(cleared.errors).toEqual([
      { path: 'body.tts_model', message: 'Required for a stt_llm_tts bundle' },
    ]);
  });

  it('lists newest first with filters, across pages', async () => {
    const client = h.sdk({}, await h.createTenant());
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) {
      ids.unshift((await client.voiceBundles.create({ name: `Bundle ${i}`, ...CASCADED })).id);
    }
    const llm = await client.voiceBundles.create({
      name: 'LLM only',
      bundle_type: 'llm',
      llm_provider: 'openai',
      llm_model: 'gpt-4o-mini',
      is_active: false,
    });
    await expectPagination((q) => client.voiceBundles.list(q), [llm.id, ...ids], 3);
    expect((await client.voiceBundles.list({ bundle_type: 'llm' })).items.map((b) => b.id)).toEqual([llm.id]);
    expect((await client.voiceBundles.list({ is_active: true })).total).toBe(3);
  });

  it('a bundle an agent uses is a 409 in_use problem to delete; unused ones delete, then 404', async () => {
    const client = h.sdk();
    const used = await client.voiceBundles.create({ name: unique('Used'), ...CASCADED });
    await makeAgent(client, { voice_bundle_id: used.id });
    await expectApiError(client.voiceBundles.delete(used.id), ConflictError, 409, 'in_use');
    const unused = await client.voiceBundles.create({ name: unique('Unused'), ...CASCADED });
    await expect(client.voiceBundles.delete(unused.id)).resolves.toBeUndefined();
    await expectApiError(client.voiceBundles.get(unused.id), NotFoundError, 404, 'not_found');
  });

  it("another organization's bundles and unknown ids are 404 problems; readers cannot write", async () => {
    const other = h.sdk({}, await h.createTenant());
    const theirs = await other.voiceBundles.create({ name: unique('Theirs'), ...CASCADED });
    await expectApiError(h.sdk().voiceBundles.get(theirs.id), NotFoundError, 404, 'not_found');
    await expectApiError(h.sdk().voiceBundles.update(randomUUID(), { name: 'x' }), NotFoundError, 404);
    const reader = await h.sdkAs('READER');
    await expectApiError(
      reader.voiceBundles.create({ name: unique('No'), ...CASCADED }),
      PermissionDeniedError,
      403,
      'forbidden',
    );
  });
});
