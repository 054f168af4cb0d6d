import { z } from 'zod';
import { trueOrFalse } from './parsers.js';

/** A blob-key prefix: segments as in blob keys, no `..`. */
const BLOB_PREFIX = /^(?!.*(^|\/)\.\.(\/|$))[A-Za-z0-9_-][A-Za-z0-9_.-]*(\/[A-Za-z0-9_-][A-Za-z0-9_.-]*)*$/;

/** Where blobs (recordings, audio) live: files in the data folder, or an S3-compatible bucket. */
export const storageFields = {
  /** Where blobs live: files under `<dataDir>/blobs`, or an S3-compatible bucket shared by every instance. @default filesystem */
  blobStore: z.enum(['filesystem', 's3']).default('filesystem'),
  /** The bucket of `blobStore: s3` (required then). */
  s3Bucket: z
    .string()
    .regex(
      /^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/,
      'must be a bucket name (3-63 lower-case letters, digits, dots, hyphens)',
    )
    .optional(),
  /** Folder of every blob in the bucket, e.g. `voice-eval/prod`; empty keeps them at the root. */
  s3Prefix: z
    .string()
    .transform((s) => s.replace(/^\/+|\/+$/g, ''))
    .refine(
      (s) => s === '' || BLOB_PREFIX.test(s),
      'must be slash-separated segments of letters, digits, "_", "-" and "."',
    )
    .default(''),
  /** An S3-compatible endpoint (MinIO, R2, Ceph…); unset talks to AWS S3. */
  s3Endpoint: z
    .string()
    .url()
    .regex(/^https?:\/\//i, 'must be an http(s) URL')
    .optional(),
  /** The bucket's region; unset falls back to `AWS_REGION`, then `us-east-1`. */
  s3Region: z.string().min(1).optional(),
  /** Path-style URLs (`endpoint/bucket/key`), which most self-hosted stores need. @default false */
  s3ForcePathStyle: trueOrFalse.default(false),
};
