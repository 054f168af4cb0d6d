import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { HeadObjectCommand, ListObjectsV2Command, S3Client } from '@aws-sdk/client-s3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startS3Double } from '../../test/doubles/s3.js';
import {
  type BlobStorage,
  blobKey,
  FilesystemStorage,
  S3Storage,
  sniffAudio,
  sniffAudioFile,
  sniffAudioHead,
} from './index.js';

const FIXTURES = join(import.meta.dirname, '../../test/fixtures/audio');

const bytes = (...values: (number | string)[]) =>
  new Uint8Array(
    values
      .flatMap((v) => (typeof v === 'string' ? [...Buffer.from(v, 'latin1')] : [v]))
      .concat(Array(16).fill(0)),
  );

type Store = { storage: BlobStorage; close(): Promise<void> };

/** Each implementation behind one contract: the filesystem store, and S3 against a loopback s3rver. */
const STORES: Array<[string, () => Promise<Store>]> = [
  [
    'filesystem',
    async () => {
      const root = mkdtempSync(join(tmpdir(), 'voice-eval-storage-'));
      return {
        storage: new FilesystemStorage(root),
        close: async () => rmSync(root, { recursive: true, force: true }),
      };
    },
  ],
  [
    's3',
    async () => {
      const s3 = await startS3Double();
      const storage = new S3Storage({
        bucket: s3.bucket,
        prefix: 'tenant-a/blobs/',
        endpoint: s3.endpoint,
        forcePathStyle: true,
        credentials: s3.credentials,
      });
      return { storage, close: () => s3.close() };
    },
  ],
];

/** A stream of `size` bytes in 64 KiB chunks, byte i being i mod 251; optionally failing after `failAfter` bytes. */
const patterned = (size: number, failAfter?: number) =>
  Readable.from(
    (function* () {
      for (let at = 0; at < size; at += 65_536) {
        if (failAfter !== undefined && at >= failAfter) throw new Error('client went away');
        const chunk = Buffer.alloc(Math.min(65_536, size - at));
        for (let i = 0; i < chunk.length; i++) chunk[i] = (at + i) % 251;
        yield chunk;
      }
    })(),
  );

const isPatterned = (bytes: Buffer, size: number) =>
  bytes.length === size && bytes.every((b, i) => b === i % 251);

const readAll = async (stream: Readable) => {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
};

describe.each(STORES)('BlobStorage contract: %s', (name, open) => {
  let store: Store;
  beforeAll(async () => {
    store = await open();
  });
  afterAll(() => store.close());

  it('writes, reads, checks, replaces and deletes a blob; deleting twice is fine', async () => {
    const { storage } = store;
    const key = blobKey('ambient-audio', 'org', 'asset.wav');
    await storage.put(key, new Uint8Array([1, 2, 3]), { contentType: 'audio/wav' });
    expect(await storage.exists(key)).toBe(true);
    expect([...((await storage.get(key)) ?? [])]).toEqual([1, 2, 3]);
    expect([...(await readAll((await storage.read(key))!))]).toEqual([1, 2, 3]);
    await storage.put(key, new Uint8Array([4, 5]));
    expect([...((await storage.get(key)) ?? [])]).toEqual([4, 5]);
    await storage.delete(key);
    await storage.delete(key);
    expect(await storage.exists(key)).toBe(false);
  });

  it('answers null and false for a blob that is not there', async () => {
    const { storage } = store;
    const key = blobKey('call-imports', 'org', 'missing', 'source.csv');
    expect(await storage.get(key)).toBeNull();
    expect(await storage.read(key)).toBeNull();
    expect(await storage.read(key, { start: 0, end: 1 })).toBeNull();
    expect(await storage.stat(key)).toBeNull();
    expect(await storage.exists(key)).toBe(false);
  });

  it("tells a blob's size and reads any part of it, first and last byte included", async () => {
    const { storage } = store;
    const key = blobKey('call-imports', 'org', 'ranged.wav');
    const bytes = Uint8Array.from({ length: 1000 }, (_, i) => i % 251);
    await storage.put(key, bytes);
    expect(await storage.stat(key)).toEqual({ size: 1000 });
    // s3rver 3.7.1 reads `bytes=0-0` as `bytes=0-` (its `end || Infinity`); S3 sends one byte
    const ranges: Array<[number, number]> = [
      [0, 0],
      [10, 19],
      [999, 999],
      [0, 999],
    ];
    for (const [start, end] of ranges.filter(([, end]) => name !== 's3' || end > 0)) {
      expect([...(await readAll((await storage.read(key, { start, end }))!))]).toEqual([
        ...bytes.subarray(start, end + 1),
      ]);
    }
  });

  it('streams a body larger than one multipart part in and out intact', async () => {
    const { storage } = store;
    const size = 11 * 1024 * 1024 + 123; // three parts of a multipart upload
    const key = blobKey('simulations', 'org', 'run', 'call-1.wav');
    await storage.put(key, patterned(size), { contentType: 'audio/wav' });
    expect(isPatterned((await storage.get(key))!, size)).toBe(true);
    expect(isPatterned(await readAll((await storage.read(key))!), size)).toBe(true);
    await storage.delete(key);
  });

  it('leaves no blob behind when the body fails midway, small or multipart', async () => {
    const { storage } = store;
    for (const [size, failAfter] of [
      [1024 * 1024, 512 * 1024],
      [12 * 1024 * 1024, 7 * 1024 * 1024],
    ] as const) {
      const key = blobKey('call-imports', 'org', 'broken', `${size}.wav`);
      // (s3rver does not implement AbortMultipartUpload, so its refusal may be the error seen)
      await expect(storage.put(key, patterned(size, failAfter))).rejects.toThrow();
      expect(await storage.exists(key)).toBe(false);
    }
  });

  it('refuses keys that could escape their folder', async () => {
    for (const key of ['../etc/passwd', 'a/../../b', '/abs', 'a//b', '', 'a\\b']) {
      await expect(store.storage.put(key, new Uint8Array([1])), key).rejects.toThrow(/Invalid blob key/);
      await expect(store.storage.get(key), key).rejects.toThrow(/Invalid blob key/);
    }
  });
});

describe('FilesystemStorage', () => {
  it('keeps blobs as files under its root, leaving no temporary files', async () => {
    const root = mkdtempSync(join(tmpdir(), 'voice-eval-storage-'));
    const storage = new FilesystemStorage(root);
    await storage.put(blobKey('ambient-audio', 'org', 'asset.wav'), new Uint8Array([1, 2, 3]));
    await storage
      .put(blobKey('ambient-audio', 'org', 'broken.wav'), patterned(300_000, 100_000))
      .catch(() => {});
    expect(readdirSync(join(root, 'ambient-audio', 'org'))).toEqual(['asset.wav']);
    rmSync(root, { recursive: true, force: true });
  });

  it('refuses keys that could leave the root', () => {
    const storage = new FilesystemStorage('/tmp/voice-eval-root');
    for (const key of ['../etc/passwd', 'a/../../b', '/abs', 'a//b', '', 'a/.hidden/../x', 'a\\b']) {
      expect(() => storage.pathOf(key), key).toThrow(/Invalid blob key/);
    }
    expect(storage.pathOf('a/b.c')).toBe('/tmp/voice-eval-root/a/b.c');
  });
});

describe('S3Storage', () => {
  it('keeps blobs under the prefix, with their content type, as any S3 client sees them', async () => {
    const s3 = await startS3Double();
    try {
      const storage = new S3Storage({
        bucket: s3.bucket,
        prefix: '/voice-eval/prod/',
        endpoint: s3.endpoint,
        forcePathStyle: true,
        credentials: s3.credentials,
      });
      await storage.put(blobKey('ambient-audio', 'org', 'a.wav'), new Uint8Array([9, 8]), {
        contentType: 'audio/wav',
      });
      const client = new S3Client({
        endpoint: s3.endpoint,
        region: 'us-east-1',
        forcePathStyle: true,
        credentials: s3.credentials,
      });
      const listed = await client.send(new ListObjectsV2Command({ Bucket: s3.bucket }));
      expect(listed.Contents?.map((o) => o.Key)).toEqual(['voice-eval/prod/ambient-audio/org/a.wav']);
      const head = await client.send(
        new HeadObjectCommand({ Bucket: s3.bucket, Key: 'voice-eval/prod/ambient-audio/org/a.wav' }),
      );
      expect(head).toMatchObject({ ContentType: 'audio/wav', ContentLength: 2 });
      client.destroy();
    } finally {
      await s3.close();
    }
  });
});

describe('sniffAudio', () => {
  const fixture = (name: string) => readFileSync(join(FIXTURES, name));
  /** An ISO base-media box: size, type, payload. */
  const box = (type: string, ...payload: Uint8Array[]) => {
    const body = Buffer.concat(payload);
    const head = Buffer.alloc(8);
    head.writeUInt32BE(8 + body.length);
    head.write(type, 4, 'latin1');
    return Buffer.concat([head, body]);
  };
  const track = (handler: string) =>
    box('trak', box('mdia', box('hdlr', Buffer.alloc(8), Buffer.from(handler, 'latin1'), Buffer.alloc(12))));
  const mp4 = (brand: string, ...tracks: string[]) =>
    Buffer.concat([
      box('ftyp', Buffer.from(`${brand}\0\0\0\0isommp41`, 'latin1')),
      box('moov', ...tracks.map(track)),
    ]);

  it('recognises the supported containers by their content', async () => {
    expect((await sniffAudio(bytes('RIFF', 0, 0, 0, 0, 'WAVEfmt ')))?.format).toBe('wav');
    expect((await sniffAudio(bytes('ID3', 4, 0, 0, 0, 0, 0, 0, 0xff, 0xfb, 0x90, 0x64)))?.format).toBe('mp3');
    expect((await sniffAudio(bytes(0xff, 0xfb, 0x90, 0x64)))?.format).toBe('mp3');
    expect((await sniffAudio(bytes('fLaC', 0, 0, 0, 0x22)))?.format).toBe('flac');
    expect(await sniffAudio(bytes(0, 0, 0, 0x20, 'ftypM4A '))).toMatchObject({
      format: 'm4a',
      contentType: 'audio/mp4',
    });
    expect((await sniffAudio(fixture('speech-8k.wav')))?.format).toBe('wav');
    expect(await sniffAudio(fixture('tones-16k-stereo.ogg'))).toMatchObject({
      format: 'ogg',
      contentType: 'audio/ogg',
    });
  });

  it("tells a stored recording's type from its head alone, an MP4 as audio", async () => {
    expect((await sniffAudioHead(bytes('RIFF', 0, 0, 0, 0, 'WAVEfmt ')))?.contentType).toBe('audio/wav');
    expect((await sniffAudioHead(fixture('tones-16k-stereo.ogg')))?.contentType).toBe('audio/ogg');
    expect((await sniffAudioHead(bytes(0, 0, 0, 0x20, 'ftypisom')))?.contentType).toBe('audio/mp4');
    expect(await sniffAudioHead(bytes('plain text, not audio'))).toBeNull();
  });

  it('takes an MP4 of a generic brand as audio only when it has a sound track and no video track', async () => {
    // a real audio-only MP4 (brand isom), which file-type calls video/mp4
    expect(await sniffAudio(fixture('opus-audio-only.mp4'))).toMatchObject({
      format: 'm4a',
      extension: 'm4a',
      contentType: 'audio/mp4',
    });
    // a real video MP4 with the same brand: refused
    expect(await sniffAudio(fixture('vp9-opus-video.mp4'))).toBeNull();
    expect((await sniffAudio(mp4('mp42', 'soun')))?.format).toBe('m4a');
    expect(await sniffAudio(mp4('mp42', 'vide', 'soun'))).toBeNull();
    expect(await sniffAudio(mp4('isom'))).toBeNull();
    expect(await sniffAudio(mp4('isom', 'text'))).toBeNull();
    // an audio brand does not make a file with a video track audio
    expect(await sniffAudio(mp4('M4A ', 'soun', 'vide'))).toBeNull();
    expect((await sniffAudio(mp4('M4A ', 'soun')))?.format).toBe('m4a');
  });

  it('rejects text, other formats and files too short to tell', async () => {
    expect(await sniffAudio(bytes('just some text here'))).toBeNull();
    expect(await sniffAudio(bytes('RIFF', 0, 0, 0, 0, 'AVI LIST'))).toBeNull();
    expect(await sniffAudio(bytes(0xff, 0xf1, 0x50, 0x80))).toBeNull(); // AAC ADTS (layer 0)
    expect(await sniffAudio(bytes(0, 0, 0, 0x20, 'ftypqt  '))).toBeNull();
    expect(await sniffAudio(new Uint8Array([0x49, 0x44, 0x33]))).toBeNull();
    expect(await sniffAudio(new Uint8Array())).toBeNull();
  });

  it('sniffs an upload from its head, but reads an MP4 whole, whose tracks may come last', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'sniff-'));
    const padding = box('mdat', Buffer.alloc(100_000));
    const write = (name: string, data: Uint8Array) => {
      writeFileSync(join(dir, name), data);
      return join(dir, name);
    };
    const ftyp = box('ftyp', Buffer.from('isom\0\0\0\0isommp41', 'latin1'));
    const late = (...tracks: string[]) => Buffer.concat([ftyp, padding, box('moov', ...tracks.map(track))]);
    expect((await sniffAudioFile(write('audio.mp4', late('soun'))))?.format).toBe('m4a');
    expect(await sniffAudioFile(write('video.mp4', late('soun', 'vide')))).toBeNull();
    const wav = Buffer.concat([fixture('speech-8k.wav'), Buffer.alloc(100_000)]);
    expect((await sniffAudioFile(write('long.wav', wav)))?.format).toBe('wav');
    rmSync(dir, { recursive: true, force: true });
  });

  it('survives malformed and deeply nested MP4 boxes', async () => {
    let nested = box('hdlr', Buffer.alloc(8), Buffer.from('vide'), Buffer.alloc(12));
    for (let i = 0; i < 2_000; i++) nested = box('moov', nested);
    const deep = Buffer.concat([box('ftyp', Buffer.from('isom\0\0\0\0', 'latin1')), nested]);
    expect(await sniffAudio(deep)).toBeNull();
    const lying = Buffer.concat([
      box('ftyp', Buffer.from('isom\0\0\0\0', 'latin1')),
      Buffer.from([0xff, 0xff, 0xff, 0xff]),
    ]);
    expect(await sniffAudio(Buffer.concat([lying, Buffer.from('moov')]))).toBeNull();
    const huge = Buffer.concat([
      box('ftyp', Buffer.from('isom\0\0\0\0', 'latin1')),
      Buffer.from([0, 0, 0, 1]),
      Buffer.from('moov'),
      Buffer.alloc(8, 0xff),
    ]);
    expect(await sniffAudio(huge)).toBeNull();
  });
});
