import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { PersonaSchema } from '@voice-eval/contract';
import { beforeAll, describe, expect, it } from 'vitest';
import { describeAccessRules, expectProblem } from '../../../test/access-rules.js';
import { makePersona } from '../../../test/factories/evaluators.js';
import {
  audioFixture,
  blobFiles,
  HookedStorage,
  tempDataDir,
  uploadFile,
} from '../../../test/factories/personas.js';
import { createHarness, type Harness } from '../../../test/harness.js';
import { setPlan } from '../../commands/set-plan.js';

const LIMIT = 64 * 1024;
let h: Harness;
let storage: HookedStorage;
let dataDir: string;
beforeAll(async () => {
  dataDir = tempDataDir();
  storage = new HookedStorage(`${dataDir}/blobs`);
  h = await createHarness({ dataDir, ambientAudioLimitBytes: LIMIT, storage });
  await setPlan(h.db, h.organizationId, 'enterprise');
  h.server.deps.authCache.clear();
});

const enterpriseTenant = async () => {
  const t = await h.createTenant();
  await setPlan(h.db, t.organizationId, 'enterprise');
  return t;
};

const audioPath = (id: string) => `/api/v1/personas/${id}/ambient-audio`;

/** The harness, sending multipart when a rule's body is raw bytes (describeAccessRules sends JSON otherwise). */
const multipartHarness = (): Harness => ({
  ...h,
  request: (method, path, options = {}) =>
    options.body instanceof Uint8Array
      ? uploadFile(h.url, path, options.headers ?? {}, options.body)
      : h.request(method, path, options),
});

describeAccessRules(multipartHarness, [
  {
    route: 'POST /api/v1/personas/:persona_id/ambient-audio',
    minRole: 'MEMBER',
    scoped: true,
    request: async (t) => ({ path: audioPath((await makePersona(h, t)).id), body: audioFixture('wav') }),
  },
  {
    route: 'DELETE /api/v1/personas/:persona_id/ambient-audio',
    minRole: 'MEMBER',
    scoped: true,
    request: async (t) => ({ path: audioPath((await makePersona(h, t)).id) }),
  },
]);

describe('ambient audio', () => {
  it('stores an upload under the data folder and selects it; replace then delete leaves no blob behind', async () => {
    const t = await enterpriseTenant();
    const headers = await t.as('MEMBER');
    const persona = await makePersona(h, t);
    const first = await uploadFile(h.url, audioPath(persona.id), headers, audioFixture('wav'), 'noise.wav');
    expect(first.status, JSON.stringify(first.body)).toBe(200);
    const uploaded = PersonaSchema.parse(first.body);
    expect(uploaded).toMatchObject({ background_noise_source: 'custom', background_noise_preset: null });
    expect(uploaded.background_noise_storage_key).toMatch(/\.wav$/);
    expect(await storage.exists(uploaded.background_noise_storage_key!)).toBe(true);
    expect(blobFiles(dataDir, t.organizationId)).toHaveLength(1);

    const second = await uploadFile(h.url, audioPath(persona.id), headers, audioFixture('mp3'), 'noise.bin');
    expect(second.body.background_noise_storage_key).toMatch(/\.mp3$/);
    expect(second.body.background_noise_asset_id).not.toBe(uploaded.background_noise_asset_id);
    expect(await storage.exists(uploaded.background_noise_storage_key!)).toBe(false);
    expect(blobFiles(dataDir, t.organizationId)).toHaveLength(1);

    const deleted = await h.request('DELETE', audioPath(persona.id), { headers });
    expect(deleted.body).toMatchObject({
      background_noise_source: 'none',
      background_noise_storage_key: null,
      background_noise_asset_id: null,
    });
    expect(blobFiles(dataDir, t.organizationId)).toEqual([]);
  });

  it('accepts every supported container by its magic bytes', async () => {
    const t = await enterpriseTenant();
    const headers = await t.as('MEMBER');
    const persona = await makePersona(h, t);
    for (const format of ['wav', 'mp3', 'ogg', 'flac', 'm4a'] as const) {
      const reply = await uploadFile(h.url, audioPath(persona.id), headers, audioFixture(format), 'x.dat');
      expect(reply.status, format).toBe(200);
      expect(reply.body.background_noise_storage_key.endsWith(`.${format}`)).toBe(true);
    }
    expect(blobFiles(dataDir, t.organizationId)).toHaveLength(1);
  });

  it('a renamed text file is 415, an oversize file 413, a missing file 422; nothing is stored', async () => {
    const t = await enterpriseTenant();
    const headers = await t.as('MEMBER');
    const persona = await makePersona(h, t);
    const text = new TextEncoder().encode('just some words pretending to be audio\n'.repeat(20));
    expectProblem(
      await uploadFile(h.url, audioPath(persona.id), headers, text, 'noise.wav', 'audio/wav'),
      415,
    );
    const huge = audioFixture('wav', LIMIT + 1024);
    expectProblem(await uploadFile(h.url, audioPath(persona.id), headers, huge), 413, 'payload_too_large');
    expectProblem(await uploadFile(h.url, audioPath(persona.id), headers, null), 422, 'validation_failed');
    const json = await h.request('POST', audioPath(persona.id), { headers, body: { file: 'x' } });
    expectProblem(json, 415, 'unsupported_media_type');
    expect(blobFiles(dataDir, t.organizationId)).toEqual([]);
    const after = await h.request('GET', `/api/v1/personas/${persona.id}`, { headers });
    expect(after.body.background_noise_source).toBe('none');
  });

  it('a video MP4 is 415 and nothing is stored; an audio-only MP4 of the same brand is m4a audio', async () => {
    const t = await enterpriseTenant();
    const headers = await t.as('MEMBER');
    const persona = await makePersona(h, t);
    const fixture = (name: string) =>
      readFileSync(join(import.meta.dirname, '../../../test/fixtures/audio', name));
    const video = await uploadFile(
      h.url,
      audioPath(persona.id),
      headers,
      fixture('vp9-opus-video.mp4'),
      'n.m4a',
      'audio/mp4',
    );
    expectProblem(video, 415, 'unsupported_media_type');
    expect(blobFiles(dataDir, t.organizationId)).toEqual([]);
    const audio = await uploadFile(
      h.url,
      audioPath(persona.id),
      headers,
      fixture('opus-audio-only.mp4'),
      'n.mp4',
    );
    expect(audio.status, JSON.stringify(audio.body)).toBe(200);
    expect(audio.body.background_noise_source).toBe('custom');
    expect(audio.body.background_noise_storage_key.endsWith('.m4a')).toBe(true);
    const row = await h.db('personas').where({ id: persona.id }).first('background_noise_content_type');
    expect(row.background_noise_content_type).toBe('audio/mp4');
  });

  it('is 403 feature_not_available on the free plan, for upload and delete', async () => {
    const t = await h.createTenant();
    const headers = await t.as('OWNER');
    const persona = await makePersona(h, t);
    expectProblem(
      await uploadFile(h.url, audioPath(persona.id), headers, audioFixture('wav')),
      403,
      'feature_not_available',
    );
    expectProblem(
      await h.request('DELETE', audioPath(persona.id), { headers }),
      403,
      'feature_not_available',
    );
    expect(blobFiles(dataDir, t.organizationId)).toEqual([]);
  });

  it('removes the new blob when the row cannot take it (persona deleted mid-upload)', async () => {
    const t = await enterpriseTenant();
    const headers = await t.as('MEMBER');
    const persona = await makePersona(h, t);
    storage.afterPut = () => h.db('personas').where({ id: persona.id }).delete();
    const reply = await uploadFile(h.url, audioPath(persona.id), headers, audioFixture('wav'));
    storage.afterPut = undefined;
    expectProblem(reply, 404, 'not_found');
    expect(blobFiles(dataDir, t.organizationId)).toEqual([]);
  });

  it('deleting a persona removes its ambient audio', async () => {
    const t = await enterpriseTenant();
    const headers = await t.as('MEMBER');
    const persona = await makePersona(h, t);
    await uploadFile(h.url, audioPath(persona.id), headers, audioFixture('ogg'));
    expect(blobFiles(dataDir, t.organizationId)).toHaveLength(1);
    expect((await h.request('DELETE', `/api/v1/personas/${persona.id}`, { headers })).status).toBe(204);
    expect(blobFiles(dataDir, t.organizationId)).toEqual([]);
  });
});
