import { randomUUID } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { mkdir, open, readFile, rename, rm, stat } from 'node:fs/promises';
import { dirname, join, resolve, sep } from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { assertBlobKey, type BlobBody, type BlobStorage, type ByteRange } from './blob-storage.js';

const isMissing = (error: unknown) => (error as { code?: string })?.code === 'ENOENT';

/**
 * Blobs as files under one root folder (by default `<dataDir>/blobs`). Writes go to a temporary
 * file renamed into place, so a reader never sees a half-written blob and a failed write leaves
 * nothing behind.
 */
export class FilesystemStorage implements BlobStorage {
  readonly root: string;

  constructor(root: string) {
    this.root = resolve(root);
  }

  /** The file of `key`; keys are validated so the path stays inside the root. */
  pathOf(key: string): string {
    const path = join(this.root, ...assertBlobKey(key).split('/'));
    if (!path.startsWith(this.root + sep)) throw new Error(`Invalid blob key: ${JSON.stringify(key)}`);
    return path;
  }

  async put(key: string, body: BlobBody): Promise<void> {
    const path = this.pathOf(key);
    await mkdir(dirname(path), { recursive: true });
    const temp = `${path}.${randomUUID()}.tmp`;
    try {
      await pipeline(body instanceof Uint8Array ? [body] : body, createWriteStream(temp, { mode: 0o600 }));
      await rename(temp, path);
    } catch (error) {
      await rm(temp, { force: true });
      throw error;
    }
  }

  async get(key: string): Promise<Buffer | null> {
    try {
      return await readFile(this.pathOf(key));
    } catch (error) {
      if (isMissing(error)) return null;
      throw error;
    }
  }

  async read(key: string, range?: ByteRange): Promise<Readable | null> {
    // opened first, so a missing blob is null here rather than an error on the stream
    let handle: Awaited<ReturnType<typeof open>>;
    try {
      handle = await open(this.pathOf(key), 'r');
    } catch (error) {
      if (isMissing(error)) return null;
      throw error;
    }
    // closes the file once read to the end or destroyed
    return handle.createReadStream(range ? { start: range.start, end: range.end } : {});
  }

  async stat(key: string): Promise<{ size: number } | null> {
    try {
      const found = await stat(this.pathOf(key));
      return found.isFile() ? { size: found.size } : null;
    } catch (error) {
      if (isMissing(error)) return null;
      throw error;
    }
  }

  async delete(key: string): Promise<void> {
    await rm(this.pathOf(key), { force: true });
  }

  async exists(key: string): Promise<boolean> {
    try {
      return (await stat(this.pathOf(key))).isFile();
    } catch (error) {
      if (isMissing(error)) return false;
      throw error;
    }
  }
}
