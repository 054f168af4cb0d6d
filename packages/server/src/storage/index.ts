import { join } from 'node:path';
import type { Config } from '../config.js';
import type { BlobStorage } from './blob-storage.js';
import { FilesystemStorage } from './filesystem-storage.js';
import { S3Storage } from './s3-storage.js';

export { assertBlobKey, type BlobBody, type BlobStorage, type ByteRange, blobKey } from './blob-storage.js';
export { FilesystemStorage } from './filesystem-storage.js';
export { S3Storage, type S3StorageOptions } from './s3-storage.js';

/** The default storage: files under `<dataDir>/blobs`. */
export const createDefaultStorage = (dataDir: string) => new FilesystemStorage(join(dataDir, 'blobs'));

/**
 * The storage the configuration selects: files under the data folder, or the S3-compatible bucket
 * of `VOICE_EVAL_BLOB_STORE=s3`. S3 credentials and the region fallback come from the standard AWS
 * variables of `env` (`AWS_ACCESS_KEY_ID`, `AWS_SECRET_ACCESS_KEY`, `AWS_SESSION_TOKEN`,
 * `AWS_REGION`); without keys there, the AWS SDK's default provider chain (profile, web identity,
 * container or instance role) is used.
 */
export const createStorage = (config: Config, env: NodeJS.ProcessEnv = process.env): BlobStorage => {
  if (config.blobStore !== 's3') return createDefaultStorage(config.dataDir);
  const { AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY, AWS_SESSION_TOKEN } = env;
  return new S3Storage({
    bucket: config.s3Bucket!,
    prefix: config.s3Prefix,
    endpoint: config.s3Endpoint,
    region: config.s3Region ?? env.AWS_REGION ?? env.AWS_DEFAULT_REGION,
    forcePathStyle: config.s3ForcePathStyle,
    credentials:
      AWS_ACCESS_KEY_ID && AWS_SECRET_ACCESS_KEY
        ? {
            accessKeyId: AWS_ACCESS_KEY_ID,
            secretAccessKey: AWS_SECRET_ACCESS_KEY,
            ...(AWS_SESSION_TOKEN ? { sessionToken: AWS_SESSION_TOKEN } : {}),
          }
        : undefined,
  });
};
export { type SniffedAudio, sniffAudio, sniffAudioFile, sniffAudioHead } from './sniff-audio.js';
