import { VoiceEvalError } from './errors.js';

/** Raw bytes or a byte stream: a `Blob`, a `Buffer`/`Uint8Array`, an `ArrayBuffer`, a web `ReadableStream` or a Node `Readable`. */
export type FileData =
  | Blob
  | Uint8Array
  | ArrayBuffer
  | ReadableStream<Uint8Array>
  | AsyncIterable<Uint8Array | string>;

/** Bytes with the name to upload them under. */
export interface NamedFile {
  data: FileData;
  /** File name sent to the API; its extension may decide how the file is read. */
  filename: string;
  /** MIME type. @default guessed from the file name, else `application/octet-stream` */
  contentType?: string;
}

/**
 * Anything an upload accepts: a `File`, `{ data, filename }`, or a stream that knows its own
 * name (`fs.createReadStream(path)`). A bare `Blob`, `Buffer` or stream has no name: wrap it.
 */
export type Uploadable = File | NamedFile | (AsyncIterable<Uint8Array | string> & { path: string | Buffer });

const MIME_TYPES: Record<string, string> = {
  csv: 'text/csv',
  xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  json: 'application/json',
  wav: 'audio/wav',
  mp3: 'audio/mpeg',
  ogg: 'audio/ogg',
  flac: 'audio/flac',
  m4a: 'audio/mp4',
  webm: 'audio/webm',
};

const guessType = (filename: string): string =>
  MIME_TYPES[filename.split('.').pop()?.toLowerCase() ?? ''] ?? 'application/octet-stream';

const basename = (path: string): string => path.split(/[\\/]/).pop() ?? path;

const isAsyncIterable = (value: unknown): value is AsyncIterable<Uint8Array | string> =>
  typeof value === 'object' && value !== null && Symbol.asyncIterator in value;

const toBlobPart = async (data: FileData): Promise<BlobPart[]> => {
  if (data instanceof Blob) return [data];
  if (data instanceof Uint8Array) return [data as Uint8Array<ArrayBuffer>];
  if (data instanceof ArrayBuffer) return [data];
  // Streams are read into memory so the body can be re-sent on a retry.
  const parts: BlobPart[] = [];
  if (data instanceof ReadableStream) {
    const reader = data.getReader();
    for (let r = await reader.read(); !r.done; r = await reader.read())
      parts.push(r.value as Uint8Array<ArrayBuffer>);
    return parts;
  }
  if (isAsyncIterable(data)) {
    for await (const chunk of data)
      parts.push(typeof chunk === 'string' ? chunk : (chunk as Uint8Array<ArrayBuffer>));
    return parts;
  }
  throw new VoiceEvalError('Unsupported upload data: pass a Blob, Uint8Array, ArrayBuffer or stream.');
};

/**
 * A `File` from bytes, a `Blob` or a stream, ready for an upload. Streams are read fully so the
 * request can be retried.
 */
export const toFile = async (
  data: FileData,
  filename: string,
  options: { contentType?: string } = {},
): Promise<File> => {
  if (!filename) throw new VoiceEvalError('An upload needs a file name.');
  const type = options.contentType ?? (data instanceof Blob && data.type ? data.type : guessType(filename));
  return new File(await toBlobPart(data), filename, { type });
};

/** Normalises any `Uploadable` to a `File`. */
export const resolveUpload = async (upload: Uploadable): Promise<File> => {
  if (upload instanceof File) return upload;
  if (isAsyncIterable(upload) && 'path' in upload) return toFile(upload, basename(String(upload.path)));
  if (typeof upload === 'object' && upload !== null && 'data' in upload && 'filename' in upload) {
    return toFile(upload.data, upload.filename, { contentType: upload.contentType });
  }
  throw new VoiceEvalError(
    'Uploads need a file name: pass a File, { data, filename }, or a stream from fs.createReadStream.',
  );
};

type FieldValue = string | number | boolean | undefined | null | ReadonlyArray<string>;

/**
 * Multipart form data built by hand (ts-rest's client would JSON-encode text fields): text
 * fields as plain strings, arrays as repeated fields, files under their names.
 */
export const buildForm = async (
  fields: Record<string, FieldValue>,
  files: Record<string, Uploadable | ReadonlyArray<Uploadable> | undefined>,
): Promise<FormData> => {
  const form = new FormData();
  for (const [name, value] of Object.entries(fields)) {
    if (value === undefined || value === null) continue;
    for (const item of Array.isArray(value) ? value : [value]) form.append(name, String(item));
  }
  for (const [name, value] of Object.entries(files)) {
    if (value === undefined) continue;
    const list: ReadonlyArray<Uploadable> = Array.isArray(value) ? value : [value as Uploadable];
    for (const upload of list) {
      const file = await resolveUpload(upload);
      form.append(name, file, file.name);
    }
  }
  return form;
};
