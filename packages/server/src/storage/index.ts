import { join } from 'node:path';
import { FilesystemStorage } from './filesystem-storage.js';

export { assertBlobKey, type BlobStorage, blobKey } from './blob-storage.js';
export { FilesystemStorage } from './filesystem-storage.js';

/** The default storage: files under `<dataDir>/blobs`. */
export const createDefaultStorage = (dataDir: string) => new FilesystemStorage(join(dataDir, 'blobs'));
export { type SniffedAudio, sniffAudio } from './sniff-audio.js';
