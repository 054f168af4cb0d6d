import { randomUUID } from 'node:crypto';
import { mkdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import { dirname, join, resolve, sep } from 'node:path';
import { assertBlobKey, type BlobStorage } from './blob-storage.js';

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

  async put(key: string, data: Uint8Array): Promise<void> {
    const path = this.pathOf(key);
    await mkdir(dirname(path), { recursive: true });
    const temp = `${path}.${randomUUID()}.tmp`;
    try {
      await writeFile(temp, data, { mode: 0o600 });
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
