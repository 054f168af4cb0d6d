import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import S3rver from 's3rver';

/**
 * A loopback S3-compatible server (s3rver) on 127.0.0.1 with one bucket, keeping objects in a
 * temporary folder. It speaks S3's REST protocol (path-style), multipart uploads included.
 */
export type S3Double = {
  /** The endpoint for `VOICE_EVAL_S3_ENDPOINT` (path-style addressing). */
  endpoint: string;
  bucket: string;
  /** The credentials s3rver accepts, as the standard AWS variables. */
  env: { AWS_ACCESS_KEY_ID: string; AWS_SECRET_ACCESS_KEY: string };
  credentials: { accessKeyId: string; secretAccessKey: string };
  close(): Promise<void>;
};

export const startS3Double = async (bucket = 'voice-eval-test'): Promise<S3Double> => {
  const directory = mkdtempSync(join(tmpdir(), 'voice-eval-s3-'));
  const server = new S3rver({
    address: '127.0.0.1',
    port: 0,
    silent: true,
    directory,
    configureBuckets: [{ name: bucket, configs: [] }],
  });
  const { port } = await server.run();
  return {
    endpoint: `http://127.0.0.1:${port}`,
    bucket,
    env: { AWS_ACCESS_KEY_ID: 'S3RVER', AWS_SECRET_ACCESS_KEY: 'S3RVER' },
    credentials: { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' },
    close: async () => {
      await server.close();
      rmSync(directory, { recursive: true, force: true });
    },
  };
};
