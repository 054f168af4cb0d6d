import type { DiarisationError, TranscriptTurn, VoiceEvent, VoiceMeasures } from '@voice-eval/contract';
import {
  type AiProvider,
  type AiProviderRecord,
  diariseV1,
  type ProviderError,
  type ProviderErrorCode,
  type ProviderPurpose,
  renderPrompt,
  transcribeDiariseV1,
} from '../../providers/index.js';
import { recordUsage } from '../../usage/record-usage.js';
import { decodeWav, encodeWav, type PcmAudio } from '../../voice/audio/index.js';
import { voiceEvents, voiceMeasures } from '../../voice/measures.js';
import { recordingTimeline } from '../../voice/speech-timeline.js';
import { listProviderRecords } from '../ai-providers/service.js';
import { CHANNEL_SPEAKERS, turnsFromChannels } from './channel-turns.js';
import { type DiarisationContext, findDiarisationContext } from './diarisation-repo.js';
import { loadRecording, type RecordingAccess } from './recording.js';
import type { RowRecord } from './row-repo.js';

/**
 * The outcome of diarising one row: its turns (and, for a recording diarised by channel, the voice
 * measures and events of its speech timeline), or the typed error to record on it.
 */
export type DiariseOutcome =
  | { ok: true; turns: TranscriptTurn[]; voice?: { measures: VoiceMeasures; events: VoiceEvent[] } }
  | { ok: false; error: DiarisationError };

/** Provider failures as row error codes (rate limits and budgets surface as `provider_error`). */
const ROW_CODES: Record<ProviderErrorCode, DiarisationError['code']> = {
  provider_error: 'provider_error',
  rate_limited: 'provider_error',
  timeout: 'timeout',
  cancelled: 'cancelled',
  invalid_provider_response: 'invalid_provider_response',
  provider_audio_unsupported: 'provider_audio_unsupported',
  ai_provider_not_configured: 'provider_error',
  budget_exhausted: 'provider_error',
};

type Run = RecordingAccess & {
  context: DiarisationContext;
  records: AiProviderRecord[];
  signal: AbortSignal;
};

/** Records each model call of the row against its organization and import. */
const usageOf = (run: Run) =>
  recordUsage(run.deps, {
    organizationId: run.context.organization_id,
    purpose: 'call_import_row.diarise',
    jobId: run.context.call_import_id,
  });

const failed = (run: Run, error: Omit<ProviderError, 'status' | 'retry_after_ms'>): DiariseOutcome => ({
  ok: false,
  error: {
    code: ROW_CODES[error.code],
    message: error.message,
    provider: error.provider,
    model: error.model,
    at: run.deps.now().toISOString(),
  },
});

const providerFor = (run: Run, provider: string | null, purpose: ProviderPurpose) =>
  run.deps.providers.forOrganization(run.records, { provider, purpose });

const toTurns = (turns: ReadonlyArray<{ speaker: 'agent' | 'user'; text: string }>): TranscriptTurn[] =>
  turns.filter((t) => t.text.trim() !== '').map((t) => ({ speaker: t.speaker, text: t.text }));

/** Splits plain text into turns with the chat model (an empty text is an empty transcript). */
const diariseText = async (run: Run, transcript: string): Promise<DiariseOutcome> => {
  if (transcript.trim() === '') return { ok: true, turns: [] };
  const picked = providerFor(run, run.context.llm_provider, 'chat');
  if (!picked.ok) return failed(run, picked.error);
  const result = await picked.provider.chat(
    {
      ...renderPrompt(diariseV1, { transcript, instructions: run.context.prompt }),
      model: run.context.llm_model ?? undefined,
    },
    { signal: run.signal, onUsage: usageOf(run) },
  );
  return result.ok ? { ok: true, turns: toTurns(result.value.data.turns) } : failed(run, result.error);
};

const transcribe = async (run: Run, stt: AiProvider, row: RowRecord) => {
  const loaded = await loadRecording(run, row, run.signal);
  if (!loaded.ok) return { ok: false as const, outcome: { ok: false as const, error: loaded.error } };
  const result = await stt.transcribe(
    { model: run.context.stt_model ?? undefined, audio: loaded.audio },
    { signal: run.signal, onUsage: usageOf(run) },
  );
  if (!result.ok) return { ok: false as const, outcome: failed(run, result.error) };
  return { ok: true as const, text: result.value.text };
};

/** `stt_llm`: speech to text (skipped when the source carried a transcript), then diarisation of the text. */
const sttThenLlm = async (run: Run, row: RowRecord): Promise<DiariseOutcome> => {
  if (row.source_transcript !== null) return diariseText(run, row.source_transcript);
  const stt = providerFor(run, run.context.stt_provider, 'stt');
  if (!stt.ok) return failed(run, stt.error);
  const heard = await transcribe(run, stt.provider, row);
  return heard.ok ? diariseText(run, heard.text) : heard.outcome;
};

/**
 * `llm_only`: one multimodal pass over the recording. A model whose chat does not take audio
 * answers `provider_audio_unsupported`, recorded on the row. A row with no recording but a
 * source transcript has its text diarised instead.
 */
const llmOnly = async (run: Run, row: RowRecord): Promise<DiariseOutcome> => {
  if (!row.recording_storage_key && !row.recording_url && row.source_transcript !== null) {
    return diariseText(run, row.source_transcript);
  }
  const picked = providerFor(run, run.context.llm_provider, 'chat');
  if (!picked.ok) return failed(run, picked.error);
  const loaded = await loadRecording(run, row, run.signal);
  if (!loaded.ok) return { ok: false, error: loaded.error };
  const result = await picked.provider.chat(
    {
      ...renderPrompt(transcribeDiariseV1, { instructions: run.context.prompt }),
      model: run.context.llm_model ?? undefined,
      audio: loaded.audio,
    },
    { signal: run.signal, onUsage: usageOf(run) },
  );
  return result.ok ? { ok: true, turns: toTurns(result.value.data.turns) } : failed(run, result.error);
};

const audioUnavailable = (run: Run, message: string): DiariseOutcome => ({
  ok: false,
  error: {
    code: 'audio_unavailable',
    message,
    provider: null,
    model: null,
    at: run.deps.now().toISOString(),
  },
});

const stereoOf = (bytes: Uint8Array): PcmAudio | null => {
  try {
    const pcm = decodeWav(bytes);
    return pcm.channels.length === CHANNEL_SPEAKERS.length ? pcm : null;
  } catch {
    return null;
  }
};

/**
 * `channels`: a stereo recording whose channels are its speakers (a simulated voice call: the
 * agent left, the caller right) is diarised by its channels, not by a model: each channel is
 * transcribed on its own with segment timestamps, and the segments in time order become the
 * turns, with times from the audio timeline. The STT model must give segments (whisper-1 does;
 * the gpt-4o transcribe models do not), else the row gets `invalid_provider_response`. The same
 * recording gives the row its voice measures and events: the live call's voice-activity detector
 * run over each channel.
 */
const byChannel = async (run: Run, row: RowRecord): Promise<DiariseOutcome> => {
  const stt = providerFor(run, run.context.stt_provider, 'stt');
  if (!stt.ok) return failed(run, stt.error);
  const loaded = await loadRecording(run, row, run.signal);
  if (!loaded.ok) return loaded;
  const pcm = stereoOf(loaded.audio.data);
  if (!pcm)
    return audioUnavailable(run, 'The recording is not a two-channel WAV file (agent left, caller right).');
  const heard = await Promise.all(
    CHANNEL_SPEAKERS.map((speaker, i) =>
      stt.provider.transcribe(
        {
          model: run.context.stt_model ?? undefined,
          audio: {
            data: encodeWav({ sampleRate: pcm.sampleRate, channels: [pcm.channels[i]!] }),
            format: 'wav',
            filename: `${row.conversation_id}-${speaker}.wav`,
          },
          segments: true,
        },
        { signal: run.signal, onUsage: usageOf(run) },
      ),
    ),
  );
  const channels = [];
  for (const [i, result] of heard.entries()) {
    if (!result.ok) return failed(run, result.error);
    if (!result.value.segments) {
      return failed(run, {
        code: 'invalid_provider_response',
        message: 'The speech-to-text reply has no segment timestamps, which diarising by channel needs.',
        provider: result.provider,
        model: result.model,
      });
    }
    channels.push({ speaker: CHANNEL_SPEAKERS[i]!, segments: result.value.segments });
  }
  // the agent's channel is the left one (CHANNEL_SPEAKERS), as the turns take it
  const timeline = recordingTimeline(pcm, 0);
  return {
    ok: true,
    turns: turnsFromChannels(channels),
    voice: { measures: voiceMeasures(timeline), events: voiceEvents(timeline) },
  };
};

/**
 * Diarises one claimed row with the settings of the transcribe request that queued it, using
 * the organization's AI providers (or the server default). Never throws for expected failures:
 * they come back as the row's typed error.
 */
export const diariseRow = async (
  access: RecordingAccess,
  row: RowRecord,
  signal: AbortSignal,
): Promise<DiariseOutcome> => {
  const context = row.diarisation_id
    ? await findDiarisationContext(access.deps.db, row.diarisation_id)
    : undefined;
  const now = access.deps.now().toISOString();
  if (!context) {
    const error = {
      code: 'provider_error' as const,
      message: 'The transcription request is gone.',
      provider: null,
      model: null,
      at: now,
    };
    return { ok: false, error };
  }
  const records = await listProviderRecords(access.deps, context.organization_id);
  const run: Run = { ...access, context, records, signal };
  if (context.mode === 'channels') return byChannel(run, row);
  return context.mode === 'llm_only' ? llmOnly(run, row) : sttThenLlm(run, row);
};
