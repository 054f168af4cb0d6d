import type { Deps } from '../../deps.js';
import { completeLeased, type Lease } from '../../dispatch/lease.js';
import type { AddressPolicy } from '../../net/address-policy.js';
import { backoffMs } from '../../net/retry.js';
import { safeFetch } from '../../net/safe-fetch.js';
import { blobKey, sniffAudio } from '../../storage/index.js';
import { AudioFormatError, decodeWav, encodeWav, wavChannelCount } from '../../voice/audio/index.js';
import { productionImportById, storeProductionRecording } from '../call-imports/production.js';
import { DIARISE_TASK } from '../call-imports/transcribe.js';
import { readIntegrationCredentials } from '../integrations/service.js';
import type { RecordingSource } from './platforms/incoming.js';
import { type ProductionCallRow, RECORDING_WORK } from './repo.js';

/** A claimed call whose recording is to be downloaded. */
export type ClaimedCall = ProductionCallRow & { lease_owner: string };

type Failure = {
  code: 'fetch_failed' | 'not_audio' | 'too_large' | 'no_credentials';
  message: string;
  retry: boolean;
};
type Fetched = { ok: true; bytes: Buffer } | ({ ok: false } & Failure);

/** The longest pause between two download attempts. */
const MAX_RETRY_DELAY_MS = 3_600_000;

/** The request that fetches a recording: its URL and the platform credentials it carries. */
const requestOf = async (
  deps: Deps,
  call: ClaimedCall,
  source: RecordingSource,
): Promise<{ url: string; headers: Record<string, string> } | Failure> => {
  if (source.auth === 'none') return { url: source.url, headers: {} };
  const credentials = call.integration_id
    ? await readIntegrationCredentials(deps, call.organization_id, call.integration_id)
    : null;
  if (!credentials) {
    return {
      code: 'no_credentials',
      message: 'The integration that can fetch this recording is gone or inactive.',
      retry: false,
    };
  }
  if (source.auth === 'elevenlabs') {
    if (!credentials.api_key) {
      return {
        code: 'no_credentials',
        message: 'The ElevenLabs integration has no API key (its api_key) to fetch the audio with.',
        retry: false,
      };
    }
    return {
      url: `${deps.config.elevenlabsApiUrl}/v1/convai/conversations/${encodeURIComponent(source.conversation_id)}/audio`,
      headers: { 'xi-api-key': credentials.api_key },
    };
  }
  if (source.auth === 'vapi') {
    return {
      url: `${deps.config.vapiApiUrl}/call/${encodeURIComponent(source.call_id)}/${source.recording}`,
      headers: { authorization: `Bearer ${credentials.secret_key}` },
    };
  }
  if (!credentials.public_key) {
    return {
      code: 'no_credentials',
      message: 'The Twilio integration has no account SID (its public_key).',
      retry: false,
    };
  }
  const basic = Buffer.from(`${credentials.public_key}:${credentials.secret_key}`).toString('base64');
  return { url: source.url, headers: { authorization: `Basic ${basic}` } };
};

/** Downloads through the SSRF-safe fetch; credentials are dropped if a redirect leaves the first origin. */
const download = async (
  deps: Deps,
  policy: AddressPolicy,
  call: ClaimedCall,
  signal: AbortSignal,
): Promise<Fetched> => {
  const request = await requestOf(deps, call, call.recording_source!);
  if (!('url' in request)) return { ok: false, ...request };
  const result = await safeFetch(request.url, {
    policy,
    redirect: 'follow',
    maxBytes: deps.config.uploadLimitBytes,
    timeoutMs: deps.config.fetchTimeoutMs,
    headers: request.headers,
    credentialHeaders: ['authorization', 'xi-api-key'],
    signal,
  });
  if (result.ok) return { ok: true, bytes: result.bytes };
  const permanent = ['invalid_url', 'address_refused', 'too_large', 'too_many_redirects', 'redirect_refused'];
  return {
    ok: false,
    code: result.code === 'too_large' ? 'too_large' : 'fetch_failed',
    message: `The recording could not be fetched: ${result.message}`,
    retry: !permanent.includes(result.code),
  };
};

/**
 * A recording as it is stored: the agent on the left, as every recording here is read (lanes,
 * diarisation by channel, voice measures). Only a two-channel WAV with the agent on the right is
 * decoded (to swap its channels); otherwise the channels are read from the WAV header, and other
 * formats are kept as they came with their channels unknown.
 */
const agentLeft = (
  bytes: Buffer,
  format: string,
  agentChannel: 0 | 1,
): { bytes: Buffer; channels: number | null } => {
  const channels = format === 'wav' ? wavChannelCount(bytes) : null;
  if (channels !== 2 || agentChannel === 0) return { bytes, channels };
  try {
    const pcm = decodeWav(bytes);
    const swapped = encodeWav({ sampleRate: pcm.sampleRate, channels: [pcm.channels[1]!, pcm.channels[0]!] });
    return { bytes: Buffer.from(swapped.buffer, swapped.byteOffset, swapped.byteLength), channels: 2 };
  } catch (error) {
    if (error instanceof AudioFormatError) return { bytes, channels: null };
    throw error;
  }
};

const failWith = (deps: Deps, call: ClaimedCall, failure: Failure) => {
  const now = deps.now();
  const lease: Lease = { id: call.id, owner: call.lease_owner };
  const error = { code: failure.code, message: failure.message, at: now.toISOString() };
  if (failure.retry && call.attempts < deps.config.recordingFetchMaxAttempts) {
    const delay = backoffMs(call.attempts, {
      baseDelayMs: deps.config.recordingFetchRetryBaseMs,
      maxDelayMs: MAX_RETRY_DELAY_MS,
    });
    return completeLeased(deps.db, RECORDING_WORK, lease, {
      recording_status: 'pending',
      recording_error: JSON.stringify(error),
      queued_at: new Date(now.getTime() + delay),
      updated_at: now,
    });
  }
  return completeLeased(deps.db, RECORDING_WORK, lease, {
    recording_status: 'failed',
    recording_error: JSON.stringify(error),
    updated_at: now,
  });
};

/**
 * Downloads a production call's recording, stores it (agent on the left) and puts it on the call's
 * row, which is then queued for transcription when the call came without turns. A failed download
 * is tried again after a back-off (durably: the call is its own work item) until
 * `recordingFetchMaxAttempts`; one that cannot succeed (no credentials, a refused address, not
 * audio) fails at once. Every write is fenced by the lease.
 */
export const fetchRecording = async (
  deps: Deps,
  policy: AddressPolicy,
  call: ClaimedCall,
  signal: AbortSignal,
): Promise<boolean> => {
  const fetched = await download(deps, policy, call, signal);
  if (signal.aborted) return false;
  if (!fetched.ok) return failWith(deps, call, fetched);
  const sniffed = await sniffAudio(fetched.bytes);
  if (!sniffed) {
    return failWith(deps, call, {
      code: 'not_audio',
      message: 'The recording is not a WAV, MP3, OGG, FLAC or M4A file.',
      retry: false,
    });
  }
  const { bytes, channels } = agentLeft(fetched.bytes, sniffed.format, call.recording_source!.agent_channel);
  const key = blobKey('production-calls', call.organization_id, `${call.id}.${sniffed.extension}`);
  await deps.storage.put(key, bytes, { contentType: sniffed.contentType });
  const target = await productionImportById(deps.db, call.call_import_id);
  const now = deps.now();
  const { won, transcribe } = await deps.db.transaction(async (trx) => {
    const lease: Lease = { id: call.id, owner: call.lease_owner };
    const held = await completeLeased(trx, RECORDING_WORK, lease, {
      recording_status: 'stored',
      recording_error: null,
      updated_at: now,
    });
    if (!held || !target) return { won: held, transcribe: false };
    return {
      won: true,
      transcribe: await storeProductionRecording(
        trx,
        target,
        call.call_import_row_id,
        { key, channels },
        now,
      ),
    };
  });
  if (transcribe) deps.workers.notify(DIARISE_TASK);
  return won;
};
