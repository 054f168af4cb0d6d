import { mkdtempSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { blobKey, FilesystemStorage, sniffAudio } from './index.js';

const bytes = (...values: (number | string)[]) =>
  new Uint8Array(
    values
      .flatMap((v) => (typeof v === 'string' ? [...Buffer.from(v, 'latin1')] : [v]))
      .concat(Array(16).fill(0)),
  );

describe('FilesystemStorage', () => {
  it('writes, reads, checks and deletes blobs under its root, leaving no temporary files', async () => {
    const root = mkdtempSync(join(tmpdir(), 'voice-eval-storage-'));
    const storage = new FilesystemStorage(root);
    const key = blobKey('ambient-audio', 'org', 'asset.wav');
    await storage.put(key, new Uint8Array([1, 2, 3]));
    expect(await storage.exists(key)).toBe(true);
    expect([...((await storage.get(key)) ?? [])]).toEqual([1, 2, 3]);
    expect(readdirSync(join(root, 'ambient-audio', 'org'))).toEqual(['asset.wav']);
    await storage.delete(key);
    await storage.delete(key);
    expect(await storage.exists(key)).toBe(false);
    expect(await storage.get(key)).toBeNull();
  });

  it('refuses keys that could leave the root', () => {
    const storage = new FilesystemStorage('/tmp/voice-eval-root');
    for (const key of ['../etc/passwd', 'a/../../b', '/abs', 'a//b', '', 'a/.hidden/../x', 'a\\b']) {
      expect(() => storage.pathOf(key), key).toThrow(/Invalid blob key/);
    }
    expect(storage.pathOf('a/b.c')).toBe('/tmp/voice-eval-root/a/b.c');
  });
});

describe('sniffAudio', () => {
  it('recognises the supported containers by magic bytes', () => {
    expect(sniffAudio(bytes('RIFF', 0, 0, 0, 0, 'WAVEfmt '))?.format).toBe('wav');
    expect(sniffAudio(bytes('ID3', 4, 0))?.format).toBe('mp3');
    expect(sniffAudio(bytes(0xff, 0xfb, 0x90, 0x64))?.format).toBe('mp3');
    expect(sniffAudio(bytes('OggS', 0, 2))?.format).toBe('ogg');
    expect(sniffAudio(bytes('fLaC', 0, 0, 0, 0x22))?.format).toBe('flac');
    expect(sniffAudio(bytes(0, 0, 0, 0x20, 'ftypM4A '))).toMatchObject({
      format: 'm4a',
      contentType: 'audio/mp4',
    });
  });

  it('rejects text, other formats and files too short to tell', () => {
    expect(sniffAudio(bytes('just some text here'))).toBeNull();
    expect(sniffAudio(bytes('RIFF', 0, 0, 0, 0, 'AVI LIST'))).toBeNull();
    expect(sniffAudio(bytes(0xff, 0xf1, 0x50, 0x80))).toBeNull(); // AAC ADTS (layer 0)
    expect(sniffAudio(bytes(0, 0, 0, 0x20, 'ftypqt  '))).toBeNull();
    expect(sniffAudio(new Uint8Array([0x49, 0x44, 0x33]))).toBeNull();
  });
});
