import { randomUUID } from 'node:crypto';
import { copyFile, mkdir, readFile, rename, rm } from 'node:fs/promises';
import { dirname } from 'node:path';
import { type BlobStorage, FilesystemStorage } from '../../storage/index.js';

/**
 * Stores an uploaded temporary file as a blob. The default filesystem storage gets a file copy
 * (temporary name, then rename, as its `put` does), so a 100 MB manifest is never held in memory;
 * any other storage receives the bytes through `put`.
 */
export const storeFile = async (storage: BlobStorage, key: string, path: string, contentType: string) => {
  if (!(storage instanceof FilesystemStorage)) {
    await storage.put(key, await readFile(path), { contentType });
    return;
  }
  const target = storage.pathOf(key);
  const temp = `${target}.${randomUUID()}.tmp`;
  await mkdir(dirname(target), { recursive: true });
  try {
    await copyFile(path, temp);
    await rename(temp, target);
  } catch (error) {
    await rm(temp, { force: true });
    throw error;
  }
};
