import type { DiarisationError } from '@voice-eval/contract';
import type { Deps } from '../../deps.js';
import type { AddressPolicy } from '../../net/address-policy.js';
import { safeFetch } from '../../net/safe-fetch.js';
import type { AudioInput } from '../../providers/index.js';
import { sniffAudio } from '../../storage/index.js';
import type { RowRecord } from './row-repo.js';

/** What loading a row's recording needs: storage, the fetch policy and limits. */
export type RecordingAccess = { deps: Deps; policy: AddressPolicy };

/** A row's recording as a provider input, or the typed row error. */
export type LoadedAudio = { ok: true; audio: AudioInput } | { ok: false; error: DiarisationError };

const fail = (deps: Deps, code: DiarisationError['code'], message: string): LoadedAudio => ({
  ok: false,
  error: { code, message, provider: null, model: null, at: deps.now().toISOString() },
});

/**
 * A file name safe in a multipart upload or a download, from the conversation id: letters,
 * digits, `_`, `-` and `.` only (providers and browsers see it).
 */
export const filenameOf = (conversationId: string, extension: string) =>
  `${conversationId.replace(/[^A-Za-z0-9_.-]+/g, '_').slice(0, 120) || 'recording'}.${extension}`;

const fetchBytes = async (access: RecordingAccess, url: string, signal: AbortSignal) => {
  const { config } = access.deps;
  const result = await safeFetch(url, {
    policy: access.policy,
    redirect: 'follow',
    maxBytes: config.uploadLimitBytes,
    timeoutMs: config.fetchTimeoutMs,
    signal,
  });
  if (result.ok) return { ok: true as const, bytes: result.bytes };
  return {
    ok: false as const,
    code: result.code,
    message: `The recording could not be fetched: ${result.message}`,
  };
};

/**
 * The row's recording: an uploaded file from storage, or the URL fetched through the SSRF-safe
 * fetch (private addresses refused unless allow-listed; size and time capped). Its format is
 * judged by its content (`sniffAudio`). Failures are `audio_unavailable` (or `timeout`).
 */
export const loadRecording = async (
  access: RecordingAccess,
  row: Pick<RowRecord, 'conversation_id' | 'recording_storage_key' | 'recording_url'>,
  signal: AbortSignal,
): Promise<LoadedAudio> => {
  const { deps } = access;
  let bytes: Buffer | null = null;
  if (row.recording_storage_key) {
    bytes = await deps.storage.get(row.recording_storage_key);
    if (!bytes) return fail(deps, 'audio_unavailable', 'The uploaded recording is missing from storage.');
  } else if (row.recording_url) {
    const fetched = await fetchBytes(access, row.recording_url, signal);
    if (!fetched.ok)
      return fail(deps, fetched.code === 'timeout' ? 'timeout' : 'audio_unavailable', fetched.message);
    bytes = fetched.bytes;
  } else {
    return fail(deps, 'audio_unavailable', 'The row has no recording.');
  }
  const sniffed = await sniffAudio(bytes);
  if (!sniffed)
    return fail(deps, 'audio_unavailable', 'The recording is not a WAV, MP3, OGG, FLAC or M4A file.');
  return {
    ok: true,
    audio: {
      data: bytes,
      format: sniffed.format,
      filename: filenameOf(row.conversation_id, sniffed.extension),
    },
  };
};
