import type { Readable } from 'node:stream';
import type { S3Client, S3ClientConfig } from '@aws-sdk/client-s3';
import { assertBlobKey, type BlobBody, type BlobStorage, type ByteRange } from './blob-storage.js';

/** Size of one part of a multipart upload (S3's minimum); at most {@link QUEUE_SIZE} are buffered at once. */
const PART_SIZE = 5 * 1024 * 1024;
const QUEUE_SIZE = 2;

export type S3StorageOptions = {
  bucket: string;
  /** Folder of every blob in the bucket, e.g. `voice-eval/prod` (no leading or trailing slash). */
  prefix?: string;
  /** An S3-compatible endpoint (MinIO, R2, Ceph…); unset talks to AWS S3. */
  endpoint?: string;
  region?: string;
  /** `http://endpoint/bucket/key` instead of `http://bucket.endpoint/key` (most self-hosted stores need it). */
  forcePathStyle?: boolean;
  /** Credentials; unset uses the AWS SDK's default provider chain (environment, profile, instance role…). */
  credentials?: S3ClientConfig['credentials'];
  /** A client to use instead of one built from the options above (tests, custom middleware). */
  client?: S3Client;
};

type Sdk = {
  s3: typeof import('@aws-sdk/client-s3');
  Upload: typeof import('@aws-sdk/lib-storage').Upload;
  client: S3Client;
};

/** The SDK's "no such object" answers: NoSuchKey from GET, a bare 404 (NotFound) from HEAD. */
const isMissing = (error: unknown) => {
  const name = (error as { name?: string })?.name;
  return name === 'NoSuchKey' || name === 'NotFound';
};

/**
 * Blobs as objects of an S3-compatible bucket, under an optional prefix, so several instances on
 * several machines share them. Writes stream through `@aws-sdk/lib-storage` (one PutObject for a
 * small body, a multipart upload of 5 MiB parts otherwise, at most two parts buffered); S3 makes
 * an object visible only once it is complete, and a failed multipart upload is aborted, so a
 * reader never sees a partial blob. Reads stream the object's body. The AWS SDK is loaded on
 * first use, so a server on the filesystem store never pays for it at start.
 */
export class S3Storage implements BlobStorage {
  readonly bucket: string;
  readonly prefix: string;
  readonly #options: S3StorageOptions;
  #sdk?: Promise<Sdk>;

  constructor(options: S3StorageOptions) {
    this.#options = options;
    this.bucket = options.bucket;
    this.prefix = (options.prefix ?? '').replace(/^\/+|\/+$/g, '');
  }

  /** The SDK modules and the client, loaded once. */
  #load(): Promise<Sdk> {
    this.#sdk ??= (async () => {
      const [s3, storage] = await Promise.all([import('@aws-sdk/client-s3'), import('@aws-sdk/lib-storage')]);
      const o = this.#options;
      const client =
        o.client ??
        new s3.S3Client({
          region: o.region ?? 'us-east-1',
          ...(o.endpoint ? { endpoint: o.endpoint } : {}),
          forcePathStyle: o.forcePathStyle ?? false,
          ...(o.credentials ? { credentials: o.credentials } : {}),
        });
      return { s3, Upload: storage.Upload, client };
    })();
    return this.#sdk;
  }

  /** The object key of a blob key: the prefix, then the validated key. */
  objectKey(key: string): string {
    assertBlobKey(key);
    return this.prefix ? `${this.prefix}/${key}` : key;
  }

  async put(key: string, body: BlobBody, meta: { contentType?: string } = {}): Promise<void> {
    const Key = this.objectKey(key);
    const { Upload, client } = await this.#load();
    const upload = new Upload({
      client,
      partSize: PART_SIZE,
      queueSize: QUEUE_SIZE,
      params: {
        Bucket: this.bucket,
        Key,
        Body: body,
        ...(meta.contentType ? { ContentType: meta.contentType } : {}),
      },
    });
    await upload.done();
  }

  async #object(key: string, range?: ByteRange) {
    const Key = this.objectKey(key);
    const { s3, client } = await this.#load();
    const Range = range ? `bytes=${range.start}-${range.end}` : undefined;
    try {
      return await client.send(new s3.GetObjectCommand({ Bucket: this.bucket, Key, Range }));
    } catch (error) {
      if (isMissing(error)) return null;
      throw error;
    }
  }

  async get(key: string): Promise<Buffer | null> {
    const object = await this.#object(key);
    if (!object?.Body) return null;
    return Buffer.from(await object.Body.transformToByteArray());
  }

  async read(key: string, range?: ByteRange): Promise<Readable | null> {
    const object = await this.#object(key, range);
    // in Node the body is an http.IncomingMessage (a Readable)
    return (object?.Body as Readable | undefined) ?? null;
  }

  async delete(key: string): Promise<void> {
    const Key = this.objectKey(key);
    const { s3, client } = await this.#load();
    // S3 answers 204 for a missing key too
    await client.send(new s3.DeleteObjectCommand({ Bucket: this.bucket, Key }));
  }

  async exists(key: string): Promise<boolean> {
    return (await this.stat(key)) !== null;
  }

  async stat(key: string): Promise<{ size: number } | null> {
    const Key = this.objectKey(key);
    const { s3, client } = await this.#load();
    try {
      const head = await client.send(new s3.HeadObjectCommand({ Bucket: this.bucket, Key }));
      return { size: head.ContentLength ?? 0 };
    } catch (error) {
      if (isMissing(error)) return null;
      throw error;
    }
  }
}
