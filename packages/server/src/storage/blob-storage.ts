/**
 * Where blobs (ambient audio, uploaded recordings, import source files) live. Keys are opaque to
 * API clients: the server builds them with {@link blobKey} and stores them on the owning row.
 * Implementations: {@link FilesystemStorage} (the default, under the data folder); a host app may
 * pass its own (object storage) through the server options.
 */
export interface BlobStorage {
  /** Writes `data` under `key`, replacing any blob there; the blob is complete once this resolves. */
  put(key: string, data: Uint8Array, meta?: { contentType?: string }): Promise<void>;
  /** The blob's bytes, or null when there is none. */
  get(key: string): Promise<Buffer | null>;
  /** Removes the blob; removing a missing blob is not an error. */
  delete(key: string): Promise<void>;
  exists(key: string): Promise<boolean>;
}

/** Keys are slash-separated segments of letters, digits, `_`, `-` and `.` (never `..`). */
const KEY = /^[A-Za-z0-9_-][A-Za-z0-9_.-]*(\/[A-Za-z0-9_-][A-Za-z0-9_.-]*)*$/;

/** Throws unless `key` is a well-formed blob key (no traversal, no absolute paths). */
export const assertBlobKey = (key: string): string => {
  if (key.length > 512 || !KEY.test(key) || key.split('/').includes('..')) {
    throw new Error(`Invalid blob key: ${JSON.stringify(key)}`);
  }
  return key;
};

/** Joins segments into a blob key, e.g. `blobKey('ambient-audio', orgId, assetId + '.wav')`. */
export const blobKey = (...segments: string[]): string => assertBlobKey(segments.join('/'));
