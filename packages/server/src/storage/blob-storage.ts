import type { Readable } from 'node:stream';

/** What a blob is written from: bytes, or a stream read to its end (never buffered whole). */
export type BlobBody = Uint8Array | Readable;

/** A part of a blob: the offsets of its first and last byte (inclusive, as in HTTP `Range`). */
export type ByteRange = { start: number; end: number };

/**
 * Where blobs (ambient audio, uploaded recordings, import source files, simulated-call
 * recordings) live. Keys are opaque to API clients: the server builds them with {@link blobKey}
 * and stores them on the owning row. Implementations: {@link FilesystemStorage} (the default,
 * under the data folder) and {@link S3Storage} (an S3-compatible bucket, `VOICE_EVAL_BLOB_STORE=s3`);
 * a host app may pass its own through the server options.
 */
export interface BlobStorage {
  /**
   * Writes `body` under `key`, replacing any blob there; the blob is complete once this resolves,
   * and a failed write leaves none. A stream is consumed as it arrives, so a large upload is never
   * held in memory.
   */
  put(key: string, body: BlobBody, meta?: { contentType?: string }): Promise<void>;
  /** The blob's bytes, or null when there is none (for consumers that need them all, e.g. a model call). */
  get(key: string): Promise<Buffer | null>;
  /**
   * The blob as a stream (only the bytes of `range` when given, which must lie within the blob),
   * or null when there is none; the caller reads it to the end or destroys it.
   */
  read(key: string, range?: ByteRange): Promise<Readable | null>;
  /** The blob's size in bytes, or null when there is none. */
  stat(key: string): Promise<{ size: number } | null>;
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
