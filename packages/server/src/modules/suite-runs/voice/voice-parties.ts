import type { Deps } from '../../../deps.js';
import type { AiProviderRecord } from '../../../providers/index.js';
import { recordUsage } from '../../../usage/record-usage.js';
import { encodeWav } from '../../../voice/audio/index.js';
import { audioWorker } from '../../../voice/audio/off-loop.js';
import type { SpeechResult } from './turn-waiter.js';

const RATE = 8000;

/** The persona fields the voice channel reads. */
export type VoicePersona = {
  tts_voice_id: string;
  tts_config: Record<string, unknown>;
  background_noise_source: string;
  background_noise_preset: string | null;
  background_noise_volume: number;
  background_noise_storage_key: string | null;
};

const failed = (message: string): SpeechResult<never> => ({
  ok: false,
  error: { code: 'speech_provider_error', message },
});

/** Usage of speech calls, recorded like every other model call of the run. */
const usageOf = (deps: Deps, organizationId: string, runId: string) =>
  recordUsage(deps, { organizationId, purpose: 'suite_run_call.converse', jobId: runId });

/**
 * The persona's voice: its words through the organization's text-to-speech provider (or the
 * server default) with the persona's `tts_voice_id` (and `tts_config.model` / `speed`), as 8 kHz audio.
 */
export const personaVoice =
  (
    deps: Deps,
    records: AiProviderRecord[],
    persona: VoicePersona,
    scope: { organizationId: string; runId: string },
  ) =>
  async (text: string, signal: AbortSignal): Promise<SpeechResult<Int16Array>> => {
    const picked = deps.providers.forOrganization(records, { purpose: 'tts' });
    if (!picked.ok) return failed(picked.error.message);
    const model = typeof persona.tts_config.model === 'string' ? persona.tts_config.model : undefined;
    const speed = typeof persona.tts_config.speed === 'number' ? persona.tts_config.speed : undefined;
    const reply = await picked.provider.speak(
      {
        text,
        voice: persona.tts_voice_id,
        format: 'wav',
        ...(model ? { model } : {}),
        ...(speed ? { speed } : {}),
      },
      { signal, onUsage: usageOf(deps, scope.organizationId, scope.runId) },
    );
    if (!reply.ok) return failed(`${reply.error.code}: ${reply.error.message}`);
    const { audio, format, sampleRate } = reply.value;
    try {
      // resampled on the audio worker: about 2.6 ms per second of 24 kHz speech, too long for the loop
      if (format === 'pcm') {
        const pcm = new Int16Array(
          audio.buffer.slice(audio.byteOffset, audio.byteOffset + (audio.byteLength & ~1)),
        );
        return {
          ok: true,
          value: await audioWorker.run({ kind: 'resample', pcm, fromRate: sampleRate, sampleRate: RATE }),
        };
      }
      return { ok: true, value: await audioWorker.run({ kind: 'decode', bytes: audio, sampleRate: RATE }) };
    } catch (error) {
      return failed(`The speech provider answered audio that could not be read: ${(error as Error).message}`);
    }
  };

/** The persona's ears: an agent utterance through the speech-to-text provider, as text. */
export const personaEars =
  (deps: Deps, records: AiProviderRecord[], scope: { organizationId: string; runId: string }) =>
  async (pcm: Int16Array, signal: AbortSignal): Promise<SpeechResult<string>> => {
    const picked = deps.providers.forOrganization(records, { purpose: 'stt' });
    if (!picked.ok) return failed(picked.error.message);
    const reply = await picked.provider.transcribe(
      {
        audio: {
          data: encodeWav({ sampleRate: RATE, channels: [pcm] }),
          format: 'wav',
          filename: 'agent.wav',
        },
      },
      { signal, onUsage: usageOf(deps, scope.organizationId, scope.runId) },
    );
    if (!reply.ok) return failed(`${reply.error.code}: ${reply.error.message}`);
    return { ok: true, value: reply.value.text.trim() };
  };
