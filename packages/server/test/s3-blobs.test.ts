import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { GetObjectCommand, ListObjectsV2Command, S3Client } from '@aws-sdk/client-s3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setPlan } from '../src/commands/set-plan.js';
import type { BlobStorage } from '../src/storage/index.js';
import { S3Storage } from '../src/storage/index.js';
import { chatReply, type OpenAiDouble, startOpenAiDouble } from '../src/testing/openai-compatible.js';
import { silentWav } from './doubles/recordings.js';
import { type S3Double, startS3Double } from './doubles/s3.js';
import { toCsv, toXlsx } from './factories/call-import-files.js';
import { createAiProvider, createSchema, STT, upload } from './factories/call-imports.js';
import { audioFixture, uploadFile } from './factories/personas.js';
import { createHarness, type Harness } from './harness.js';

/**
 * Every blob path of the server on the S3 store, selected through configuration
 * (`blobStore: s3`, credentials from the standard AWS variables) against a loopback s3rver:
 * call-import sources (CSV, XLSX) and recordings, recordings read back for diarisation, persona
 * ambient audio, and the delete-after-commit rules. The objects are checked with a separate S3
 * client, and nothing may land in the data folder's `blobs`.
 */

const PREFIX = 'tenants/eu';
let s3: S3Double;
let client: S3Client;
let h: Harness;
let openai: OpenAiDouble;

beforeAll(async () => {
  s3 = await startS3Double();
  openai = await startOpenAiDouble({ auth: { header: 'authorization', value: 'Bearer sk-double' } });
  h = await createHarness({
    blobStore: 's3',
    s3Bucket: s3.bucket,
    s3Prefix: PREFIX,
    s3Endpoint: s3.endpoint,
    s3ForcePathStyle: true,
    ambientAudioLimitBytes: 256 * 1024,
    // the AI provider's double is on loopback
    fetchAllowlist: ['127.0.0.1'],
    env: { ...s3.env },
  });
  await setPlan(h.db, h.organizationId, 'enterprise');
  h.server.deps.authCache.clear();
  await createAiProvider(h, h, openai.url);
  client = new S3Client({
    endpoint: s3.endpoint,
    region: 'us-east-1',
    forcePathStyle: true,
    credentials: s3.credentials,
  });
});
afterAll(async () => {
  client.destroy();
  await openai.close();
  await s3.close();
});

/** Object keys in the bucket under `prefix` (relative to the configured prefix). */
const objects = async (prefix: string) => {
  const listed = await client.send(
    new ListObjectsV2Command({ Bucket: s3.bucket, Prefix: `${PREFIX}/${prefix}` }),
  );
  return (listed.Contents ?? []).map((o) => o.Key!.slice(PREFIX.length + 1)).sort();
};

const objectBytes = async (key: string) => {
  const got = await client.send(new GetObjectCommand({ Bucket: s3.bucket, Key: `${PREFIX}/${key}` }));
  return Buffer.from(await got.Body!.transformToByteArray());
};

/** Runs `during` with the server's storage writing through `put` (a fault injected after a real write). */
const withPut = async <T>(put: BlobStorage['put'], during: () => Promise<T>): Promise<T> => {
  const real = h.server.deps.storage;
  h.server.deps.storage = {
    put,
    get: (key) => real.get(key),
    read: (key, range) => real.read(key, range),
    stat: (key) => real.stat(key),
    delete: (key) => real.delete(key),
    exists: (key) => real.exists(key),
  };
  try {
    return await during();
  } finally {
    h.server.deps.storage = real;
  }
};

const settled = async (id: string) => {
  await expect
    .poll(
      async () =>
        (
          await h
            .db('call_import_rows')
            .where('call_import_id', id)
            .whereIn('diarised_transcript_status', ['pending', 'running'])
        ).length,
      { timeout: 20_000, interval: 50 },
    )
    .toBe(0);
  return (
    await h.request('GET', `/api/v1/call-imports/${id}?row_limit=100`, { headers: await h.as('READER') })
  ).body;
};

describe('blobs on an S3-compatible store', () => {
  it('the configured store is S3, and the data folder holds no blobs', () => {
    expect(h.server.deps.storage).toBeInstanceOf(S3Storage);
    expect(h.server.config).toMatchObject({ blobStore: 's3', s3Prefix: PREFIX });
  });

  it('keeps CSV and XLSX import sources in the bucket and removes them with the import', async () => {
    const schemaId = await createSchema(h, h, [
      { name: 'conversation_id', type: 'conversation_id', is_required: true },
      { name: 'transcript', type: 'transcript' },
    ]);
    const headers = await h.as('OWNER');
    const csv = Buffer.from(
      toCsv([
        ['conversation_id', 'transcript'],
        ['c-1', 'agent: hi. user: hello.'],
      ]),
    );
    const xlsx = toXlsx([
      {
        name: 'Calls',
        rows: [
          ['conversation_id', 'transcript'],
          ['x-1', 'agent: hello'],
        ],
      },
    ]);
    const ids: string[] = [];
    for (const [name, bytes, format] of [
      ['calls.csv', csv, 'csv'],
      ['calls.xlsx', xlsx, 'xlsx'],
    ] as const) {
      const reply = await upload(h, headers, { schema_id: schemaId }, [{ field: 'file', name, bytes }]);
      expect(reply.status, JSON.stringify(reply.body)).toBe(201);
      expect(reply.body).toMatchObject({ status: 'completed', total_rows: 1, source_format: format });
      const key = `call-imports/${h.organizationId}/${reply.body.id}/source.${format}`;
      expect(reply.body.source_storage_key).toBe(key);
      expect((await objectBytes(key)).equals(Buffer.from(bytes))).toBe(true);
      ids.push(reply.body.id);
    }
    expect(existsSync(join(h.server.config.dataDir, 'blobs'))).toBe(false);
    for (const id of ids) {
      const deleted = await h.request('DELETE', `/api/v1/call-imports/${id}`, { headers });
      expect(deleted.status).toBe(204);
      expect(await objects(`call-imports/${h.organizationId}/${id}/`)).toEqual([]);
    }
  });

  it('stores uploaded recordings in the bucket and transcribes them from there', async () => {
    const schemaId = await createSchema(h, h, [
      { name: 'conversation_id', type: 'conversation_id', is_required: true },
    ]);
    const headers = await h.as('OWNER');
    const wavs = [silentWav(400, 1), silentWav(600, 2)];
    const reply = await upload(
      h,
      headers,
      { schema_id: schemaId },
      wavs.map((bytes, i) => ({ field: 'files', name: `rec-${i + 1}.wav`, bytes, type: 'audio/wav' })),
    );
    expect(reply.status, JSON.stringify(reply.body)).toBe(201);
    const id: string = reply.body.id;
    expect(await objects(`call-imports/${h.organizationId}/${id}/`)).toEqual([
      `call-imports/${h.organizationId}/${id}/1.wav`,
      `call-imports/${h.organizationId}/${id}/2.wav`,
    ]);
    expect((await objectBytes(`call-imports/${h.organizationId}/${id}/2.wav`)).equals(wavs[1]!)).toBe(true);

    const from = openai.requests.length;
    openai.enqueue(
      '/v1/chat/completions',
      chatReply({ turns: [{ speaker: 'agent', text: 'hello' }] }),
      chatReply({ turns: [{ speaker: 'agent', text: 'hello' }] }),
    );
    const queued = await h.request('POST', `/api/v1/call-imports/${id}/transcribe`, { headers, body: STT });
    expect(queued.status, JSON.stringify(queued.body)).toBe(202);
    const detail = await settled(id);
    expect(
      detail.rows.map((r: { diarised_transcript_status: string }) => r.diarised_transcript_status),
    ).toEqual(['completed', 'completed']);
    // the speech-to-text provider received exactly the uploaded bytes, read back from the bucket
    const heard = openai.requests
      .slice(from)
      .filter((r) => r.path === '/v1/audio/transcriptions')
      .flatMap((r) => (r.multipart?.file ? [r.multipart.file] : []))
      .sort((a, b) => a.name.localeCompare(b.name));
    expect(heard.map((f) => f.name)).toEqual(['rec-1.wav', 'rec-2.wav']);
    expect(heard.map((f) => f.bytes.equals(wavs[heard.indexOf(f)]!))).toEqual([true, true]);

    expect((await h.request('DELETE', `/api/v1/call-imports/${id}`, { headers })).status).toBe(204);
    expect(await objects(`call-imports/${h.organizationId}/${id}/`)).toEqual([]);
  });

  it('removes recordings already written when the import does not commit', async () => {
    const schemaId = await createSchema(h, h, [
      { name: 'conversation_id', type: 'conversation_id', is_required: true },
    ]);
    const headers = await h.as('OWNER');
    const real = h.server.deps.storage;
    let written = 0;
    const reply = await withPut(
      async (key, body, meta) => {
        await real.put(key, body, meta);
        if (++written === 2) throw new Error('bucket went away after the second recording');
      },
      () =>
        upload(
          h,
          headers,
          { schema_id: schemaId },
          [1, 2, 3].map((i) => ({ field: 'files', name: `lost-${i}.wav`, bytes: silentWav(200, i) })),
        ),
    );
    expect(reply.status).toBe(500);
    expect(written).toBe(2);
    expect(await objects(`call-imports/${h.organizationId}/`)).toEqual([]);
    expect(await h.db('call_imports').where('organization_id', h.organizationId)).toEqual([]);
  });

  it('keeps persona ambient audio in the bucket: replaced and deleted only after the commit', async () => {
    const headers = await h.as('MEMBER');
    const created = await h.request('POST', '/api/v1/personas', {
      headers,
      body: { name: 'Noisy caller', tts_provider: 'elevenlabs', tts_voice_id: 'rachel' },
    });
    expect(created.status).toBe(201);
    const personaId: string = created.body.id;
    const folder = `ambient-audio/${h.organizationId}/${personaId}/`;
    const path = `/api/v1/personas/${personaId}/ambient-audio`;

    const first = audioFixture('wav', 200 * 1024);
    const up = await uploadFile(h.url, path, headers, first);
    expect(up.status, JSON.stringify(up.body)).toBe(200);
    const [firstKey] = await objects(folder);
    expect(firstKey).toMatch(/\.wav$/);
    expect((await objectBytes(firstKey!)).equals(Buffer.from(first))).toBe(true);

    const second = audioFixture('mp3', 10 * 1024);
    expect((await uploadFile(h.url, path, headers, second)).status).toBe(200);
    const keys = await objects(folder);
    expect(keys).toHaveLength(1);
    expect(keys[0]).toMatch(/\.mp3$/);
    expect((await objectBytes(keys[0]!)).equals(Buffer.from(second))).toBe(true);

    // the row does not commit (the persona is deleted meanwhile): the new blob is removed again
    const real = h.server.deps.storage;
    const lost = await withPut(
      async (key, body, meta) => {
        await real.put(key, body, meta);
        expect(await objects(folder)).toHaveLength(2);
        await h.db('personas').where('id', personaId).delete();
      },
      () => uploadFile(h.url, path, headers, audioFixture('flac', 4096)),
    );
    expect(lost.status).toBe(404);
    expect(await objects(folder)).toEqual(keys); // the new blob is gone (the older one belonged to the deleted row)
  });

  it('deletes ambient audio from the bucket when it is removed', async () => {
    const headers = await h.as('MEMBER');
    const created = await h.request('POST', '/api/v1/personas', {
      headers,
      body: { name: 'Quiet caller', tts_provider: 'elevenlabs', tts_voice_id: 'rachel' },
    });
    const path = `/api/v1/personas/${created.body.id}/ambient-audio`;
    const folder = `ambient-audio/${h.organizationId}/${created.body.id}/`;
    expect((await uploadFile(h.url, path, headers, audioFixture('ogg', 8192))).status).toBe(200);
    expect(await objects(folder)).toHaveLength(1);
    expect((await h.request('DELETE', path, { headers })).status).toBe(200);
    expect(await objects(folder)).toEqual([]);
  });
});
