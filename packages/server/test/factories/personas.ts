import { existsSync, mkdtempSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type BlobBody, FilesystemStorage } from '../../src/storage/index.js';
import type { Reply } from '../harness.js';

/** Test helpers for ambient audio: audio fixtures, multipart uploads, and a storage with a hook. */

type Format = 'wav' | 'mp3' | 'ogg' | 'flac' | 'm4a';

const HEADERS: Record<Format, (size: number) => Buffer> = {
  wav: (size) => {
    const b = Buffer.alloc(44);
    b.write('RIFF', 0, 'ascii');
    b.writeUInt32LE(36 + size, 4);
    b.write('WAVEfmt ', 8, 'ascii');
    b.writeUInt32LE(16, 16);
    b.writeUInt16LE(1, 20);
    b.writeUInt16LE(1, 22);
    b.writeUInt32LE(8000, 24);
    b.writeUInt32LE(16000, 28);
    b.writeUInt16LE(2, 32);
    b.writeUInt16LE(16, 34);
    b.write('data', 36, 'ascii');
    b.writeUInt32LE(size, 40);
    return b;
  },
  mp3: () => Buffer.from([0x49, 0x44, 0x33, 0x04, 0, 0, 0, 0, 0, 0, 0xff, 0xfb, 0x90, 0x64]),
  // a first Ogg page (27-byte header, one segment) opening a Vorbis identification packet
  ogg: () =>
    Buffer.concat([
      Buffer.from('OggS', 'ascii'),
      Buffer.from([0, 2, ...Array(20).fill(0), 1, 30]),
      Buffer.from('\x01vorbis', 'latin1'),
    ]),
  flac: () => Buffer.concat([Buffer.from('fLaC', 'ascii'), Buffer.from([0, 0, 0, 0x22, 0x10, 0, 0x10, 0])]),
  m4a: () => Buffer.concat([Buffer.from([0, 0, 0, 0x20]), Buffer.from('ftypM4A \0\0\0\0M4A isom', 'ascii')]),
};

/** A file starting with the magic bytes of `format`, padded to `size` bytes of pseudo-samples. */
export const audioFixture = (format: Format, size = 4096): Uint8Array => {
  const header = HEADERS[format](size);
  const body = Buffer.alloc(Math.max(0, size - header.length));
  for (let i = 0; i < body.length; i++) body[i] = (i * 37) % 251;
  return new Uint8Array(Buffer.concat([header, body]));
};

/** POSTs `bytes` as the multipart field `file` (or a form without a file when null). */
export const uploadFile = async (
  baseUrl: string,
  path: string,
  headers: Record<string, string>,
  bytes: Uint8Array | null,
  filename = 'ambient.wav',
  type = 'application/octet-stream',
): Promise<Reply> => {
  const form = new FormData();
  if (bytes) form.append('file', new File([new Uint8Array(bytes)], filename, { type }));
  else form.append('note', 'no file here');
  const res = await fetch(`${baseUrl}${path}`, { method: 'POST', headers, body: form });
  const text = await res.text();
  let body: unknown = text;
  try {
    body = text ? JSON.parse(text) : undefined;
  } catch {}
  return { status: res.status, headers: res.headers, body };
};

/** A fresh data folder for one test file. */
export const tempDataDir = () => mkdtempSync(join(tmpdir(), 'voice-eval-personas-'));

/** Every file under the organization's ambient-audio folder (relative paths). */
export const blobFiles = (dataDir: string, organizationId: string): string[] => {
  const root = join(dataDir, 'blobs', 'ambient-audio', organizationId);
  if (!existsSync(root)) return [];
  return readdirSync(root, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => join(entry.parentPath, entry.name).slice(root.length + 1));
};

/** Filesystem storage that runs `afterPut` once a blob is written (to fail what comes next). */
export class HookedStorage extends FilesystemStorage {
  afterPut?: () => Promise<unknown>;

  override async put(key: string, body: BlobBody): Promise<void> {
    await super.put(key, body);
    await this.afterPut?.();
  }
}
