import type { CallImportRow, RecordingPeaks, RecordingUrl } from '@voice-eval/contract';
import type { MockEnv, RouteImpl } from './env.js';
import { notFound, publicBaseOf } from './env.js';
import type { MockReply, ParsedRequest } from './respond.js';

/** How long a mocked signed URL works, as on the server. */
const SIGNED_URL_TTL_MS = 15 * 60 * 1000;

/**
 * A WAV file the mock serves for any stored recording: one second of stereo silence at 8 kHz,
 * 16-bit (agent left, caller right, as the server records calls).
 */
export const mockRecordingWav = (): Uint8Array => {
  const rate = 8000;
  const channels = 2;
  const data = rate * channels * 2;
  const bytes = new Uint8Array(44 + data);
  const view = new DataView(bytes.buffer);
  const ascii = (at: number, text: string) => {
    for (let i = 0; i < text.length; i++) bytes[at + i] = text.charCodeAt(i);
  };
  ascii(0, 'RIFF');
  view.setUint32(4, 36 + data, true);
  ascii(8, 'WAVE');
  ascii(12, 'fmt ');
  view.setUint32(16, 16, true);
  view.setUint16(20, 1, true); // PCM
  view.setUint16(22, channels, true);
  view.setUint32(24, rate, true);
  view.setUint32(28, rate * channels * 2, true);
  view.setUint16(32, channels * 2, true);
  view.setUint16(34, 16, true);
  ascii(36, 'data');
  view.setUint32(40, data, true);
  return bytes;
};

const recordingPath = (req: ParsedRequest) =>
  `/api/v1/call-imports/${req.params.call_import_id}/rows/${req.params.row_id}/recording`;

/** The row of the request's import, when the import is in the request's workspace. */
const rowOf = (req: ParsedRequest, env: MockEnv, scoped = true): CallImportRow | MockReply => {
  const callImportId = req.params.call_import_id ?? '';
  if (scoped && !env.db.callImports.get(callImportId, req.workspaceId)) return notFound('Call import');
  const row = env.db.callImportRows.get(req.params.row_id ?? '');
  return row && row.call_import_id === callImportId ? row : notFound('Call import row');
};
const isReply = (value: CallImportRow | MockReply): value is MockReply => 'status' in value;

/**
 * `bytes=` with one range as the server reads it (inclusive offsets, an open end, a suffix), or
 * 'unsatisfiable' (past the end, or malformed); undefined without a header, for another unit and
 * for several ranges (the whole file is sent, as the server does).
 */
const rangeOf = (header: string | null, size: number) => {
  if (!header?.trim().startsWith('bytes=') || header.includes(',')) return undefined;
  const match = /^bytes=(\d*)-(\d*)$/.exec(header.trim());
  if (!match || (match[1] === '' && match[2] === '')) return 'unsatisfiable' as const;
  const [first, last] = [match[1]!, match[2]!];
  const start = first === '' ? Math.max(0, size - Number(last)) : Number(first);
  const end = first === '' || last === '' ? size - 1 : Math.min(Number(last), size - 1);
  return start > end || start >= size ? ('unsatisfiable' as const) : { start, end };
};

const recording: RouteImpl = (req, env) => {
  const signature = req.query.signature as string | undefined;
  if (signature !== undefined) {
    const signed = env.signedRecordingUrls.get(signature);
    if (!signed || signed.path !== recordingPath(req) || signed.expiresAt <= Date.now()) {
      return {
        status: 401,
        body: { detail: 'The signed URL is invalid or has expired; ask for a new one.' },
      };
    }
  }
  const row = rowOf(req, env, signature === undefined);
  if (isReply(row)) return row;
  if (!row.recording_storage_key) return notFound('Stored recording');
  const bytes = mockRecordingWav();
  const range = rangeOf(req.request.headers.get('range'), bytes.length);
  if (range === 'unsatisfiable') {
    return {
      status: 416,
      body: { code: 'range_not_satisfiable', detail: `The recording has ${bytes.length} bytes.` },
      headers: { 'content-range': `bytes */${bytes.length}` },
    };
  }
  const part = range ? bytes.subarray(range.start, range.end + 1) : bytes;
  return {
    status: range ? 206 : 200,
    body: part,
    headers: {
      'content-type': 'audio/wav',
      'accept-ranges': 'bytes',
      'cache-control': 'private, no-cache',
      ...(range ? { 'content-range': `bytes ${range.start}-${range.end}/${bytes.length}` } : {}),
    },
  };
};

/** Routes of a row and its recording: the single read, the bytes (with ranges) and signed URLs. */
export const recordingImpls: Record<string, RouteImpl> = {
  'callImports.getRow': (req, env) => {
    const row = rowOf(req, env);
    return isReply(row) ? row : { status: 200, body: row };
  },
  'callImports.recording': recording,
  'callImports.recordingPeaks': (req, env) => {
    const row = rowOf(req, env);
    if (isReply(row)) return row;
    if (!row.recording_storage_key) return notFound('Stored recording');
    // the peaks of the served file (mockRecordingWav): one second of silence on both channels
    const points = Math.min(Number(req.query.points ?? 1000), 8000);
    const silence = Array.from({ length: points }, () => 0);
    const body: RecordingPeaks = { duration_ms: 1000, sample_rate: 8000, channels: [silence, [...silence]] };
    return { status: 200, body };
  },
  'callImports.recordingUrl': (req, env) => {
    const row = rowOf(req, env);
    if (isReply(row)) return row;
    if (!row.recording_storage_key) return notFound('Stored recording');
    const expiresAt = Date.now() + SIGNED_URL_TTL_MS;
    const signature = `mock_${env.seq.uuid().replaceAll('-', '')}`;
    env.signedRecordingUrls.set(signature, { path: recordingPath(req), expiresAt });
    const body: RecordingUrl = {
      url: `${publicBaseOf(req)}${recordingPath(req)}?expires=${Math.floor(expiresAt / 1000)}&signature=${signature}`,
      expires_at: new Date(expiresAt).toISOString(),
    };
    return { status: 200, body };
  },
};
