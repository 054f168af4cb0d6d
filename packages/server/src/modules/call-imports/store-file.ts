import { createReadStream } from 'node:fs';
import type { BlobStorage } from '../../storage/index.js';

/**
 * Stores an uploaded temporary file as a blob, streamed from the file (a file copy for the
 * filesystem store, a streamed upload for S3), so a 100 MB manifest is never held in memory.
 */
export const storeFile = (storage: BlobStorage, key: string, path: string, contentType: string) =>
  storage.put(key, createReadStream(path), { contentType });
