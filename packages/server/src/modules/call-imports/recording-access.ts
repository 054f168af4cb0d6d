import { createHmac, hkdfSync, timingSafeEqual } from 'node:crypto';
import { Readable } from 'node:stream';
import type { CallImportRow, RecordingUrl } from '@voice-eval/contract';
import type { RequestContext } from '../../context.js';
import type { Deps } from '../../deps.js';
import { ApiError, notFound } from '../../errors.js';
import { type ByteRange, sniffAudioHead } from '../../storage/index.js';
import { filenameOf } from './recording.js';
import * as repo from './repo.js';
import * as rows from './row-repo.js';
import { toCallImportRow } from './service.js';

/** How long a signed recording URL works, in seconds. */
export const RECORDING_URL_TTL_SECONDS = 15 * 60;

/** The recording's path under the API, the part of a signed URL its signature covers. */
export const recordingPath = (callImportId: string, rowId: string) =>
  `/api/v1/call-imports/${callImportId}/rows/${rowId}/recording`;

/** The HMAC key of signed URLs, derived from the token secret so no other key needs configuring. */
const signingKey = (jwtSecret: string) =>
  Buffer.from(hkdfSync('sha256', jwtSecret, '', 'voice-eval signed recording url v1', 32));

const signatureOf = (jwtSecret: string, path: string, expires: number) =>
  createHmac('sha256', signingKey(jwtSecret)).update(`${path}\n${expires}`).digest();

/** A row of an import of the caller's workspace (404 for another workspace's, as for the import). */
export const getRow = async (
  deps: Deps,
  ctx: RequestContext,
  callImportId: string,
  rowId: string,
): Promise<CallImportRow> => {
  if (!(await repo.findImport(deps.db, ctx, callImportId))) throw notFound('Call import');
  const row = await rows.findRow(deps.db, callImportId, rowId);
  if (!row) throw notFound('Call import row');
  return toCallImportRow(row);
};

/**
 * A signed URL of the row's recording: `base` (the public URL, or the request's origin and mount
 * path) and the recording's path, with `expires` (Unix seconds) and an HMAC-SHA256 over the path
 * and `expires`. Checks first that the caller may read the row and that it has a stored recording.
 */
export const signRecordingUrl = async (
  deps: Deps,
  ctx: RequestContext,
  base: string,
  callImportId: string,
  rowId: string,
): Promise<RecordingUrl> => {
  const row = await getRow(deps, ctx, callImportId, rowId);
  storedKeyOf(row);
  const expires = Math.floor(deps.now().getTime() / 1000) + RECORDING_URL_TTL_SECONDS;
  const path = recordingPath(callImportId, rowId);
  const signature = signatureOf(deps.config.jwtSecret, path, expires).toString('base64url');
  return {
    url: `${base}${path}?expires=${expires}&signature=${signature}`,
    expires_at: new Date(expires * 1000).toISOString(),
  };
};

/**
 * Whether `signature` is the server's for this recording and `expires` has not passed (compared
 * in constant time). A signature for another row, import or expiry never matches.
 */
const isSignedFor = (deps: Deps, callImportId: string, rowId: string, expires: number, signature: string) => {
  if (expires * 1000 <= deps.now().getTime()) return false;
  // the text as the server wrote it: base64url has several spellings of one last byte, so the
  // text is compared, not the bytes it decodes to
  const expected = Buffer.from(
    signatureOf(deps.config.jwtSecret, recordingPath(callImportId, rowId), expires).toString('base64url'),
  );
  const given = Buffer.from(signature);
  return given.length === expected.length && timingSafeEqual(given, expected);
};

/** The blob key of the row's stored recording; 404 when it has none or only a URL. */
export const storedKeyOf = (row: Pick<CallImportRow, 'recording_storage_key' | 'recording_url'>): string => {
  if (row.recording_storage_key) return row.recording_storage_key;
  throw new ApiError(
    'not_found',
    row.recording_url
      ? 'This row has no stored recording: its recording is the URL in `recording_url`, which the server does not keep.'
      : 'This row has no recording.',
  );
};

/** Who asks for a recording: a caller with credentials, or the holder of a signed URL. */
export type RecordingRequester =
  | { kind: 'caller'; ctx: RequestContext }
  | { kind: 'signed'; expires: number | undefined; signature: string };

/** What to send for a recording request: status, headers and the bytes. */
export type RecordingResponse = {
  status: 200 | 206;
  headers: Record<string, string>;
  body: Readable;
};

/**
 * The recording of a row, whole or the part a single `bytes=` range asks for (`rangeOf`:
 * Express's `req.range(size)` of the request). A signed request is checked against its signature and expiry
 * (401 when they do not hold) and reads the row the URL names; a caller reads it within its
 * workspace. A range past the end, or malformed, is 416 with `Content-Range: bytes *\/size`;
 * several ranges are answered with the whole recording, which HTTP allows. `headOnly` (HEAD):
 * the same headers, no bytes read.
 */
export const openRecording = async (
  deps: Deps,
  who: RecordingRequester,
  callImportId: string,
  rowId: string,
  rangeOf: (size: number) => ByteRange[] | -1 | -2 | undefined,
  headOnly = false,
): Promise<RecordingResponse> => {
  let row: Pick<CallImportRow, 'recording_storage_key' | 'recording_url' | 'conversation_id'>;
  if (who.kind === 'signed') {
    if (who.expires === undefined || !isSignedFor(deps, callImportId, rowId, who.expires, who.signature)) {
      throw new ApiError('unauthenticated', 'The signed URL is invalid or has expired; ask for a new one.');
    }
    const found = await rows.findRow(deps.db, callImportId, rowId);
    if (!found) throw notFound('Call import row');
    row = found;
  } else {
    row = await getRow(deps, who.ctx, callImportId, rowId);
  }
  const key = storedKeyOf(row);
  const stat = await deps.storage.stat(key);
  if (!stat) throw new ApiError('not_found', 'The stored recording is missing from storage.');
  const { size } = stat;
  const ranges = rangeOf(size);
  if (ranges === -1 || ranges === -2) {
    throw new ApiError(
      'range_not_satisfiable',
      `The recording has ${size} bytes; ask for a range within them.`,
      {
        headers: { 'Content-Range': `bytes */${size}` },
      },
    );
  }
  const part = ranges?.length === 1 ? ranges[0]! : undefined;
  const format = await formatOf(deps, key, size);
  // HEAD wants the headers only: the bytes are not read
  const body = headOnly ? Readable.from([]) : await deps.storage.read(key, part);
  if (!body) throw new ApiError('not_found', 'The stored recording is missing from storage.');
  const headers: Record<string, string> = {
    'Content-Type': format.contentType,
    'Accept-Ranges': 'bytes',
    'Content-Length': String(part ? part.end - part.start + 1 : size),
    'Content-Disposition': `inline; filename="${filenameOf(row.conversation_id, format.extension)}"`,
    // the browser may keep it for the session, no shared cache may; a signed URL until it expires
    'Cache-Control':
      who.kind === 'signed' && who.expires !== undefined
        ? `private, max-age=${Math.max(0, who.expires - Math.floor(deps.now().getTime() / 1000))}`
        : 'private, no-cache',
  };
  if (part) headers['Content-Range'] = `bytes ${part.start}-${part.end}/${size}`;
  return { status: part ? 206 : 200, headers, body };
};

/** How many bytes of a recording's head tell its container. */
const HEAD_BYTES = 4100;

/** Bytes whose container is not one the server stores audio in (never, for a stored recording). */
const UNKNOWN = { contentType: 'application/octet-stream', extension: 'bin' };

/** The recording's media type and extension, judged by its first bytes (it was judged whole when stored). */
const formatOf = async (deps: Deps, key: string, size: number) => {
  if (size === 0) return UNKNOWN;
  const head = await deps.storage.read(key, { start: 0, end: Math.min(size, HEAD_BYTES) - 1 });
  if (!head) return UNKNOWN;
  const chunks: Buffer[] = [];
  for await (const chunk of head) chunks.push(chunk as Buffer);
  return (await sniffAudioHead(Buffer.concat(chunks))) ?? UNKNOWN;
};
