/** Server, contract and SDK agree on transcription: queueing, the worker loop, waiting, cancelling. */
import { randomUUID } from 'node:crypto';
import { NotFoundError, UnprocessableEntityError, type VoiceEval } from '@voice-eval/sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chatReply, type OpenAiDouble, startOpenAiDouble } from '../../src/testing/openai-compatible.js';
import { silentWav } from '../doubles/recordings.js';
import { expectApiError } from './conformance.js';
import { importCalls, unique } from './fixtures.js';
import { createSdkHarness, type SdkHarness } from './sdk-harness.js';

const KEY = 'sk-double';
const TURNS = [
  { speaker: 'agent', text: 'Thanks for calling, how can I help?' },
  { speaker: 'user', text: 'My order is late.' },
] as const;
const STT_LLM = { stt_provider: 'openai', stt_model: 'whisper-1', diarization_llm_model: 'gpt-4o-mini' };

let h: SdkHarness;
let double: OpenAiDouble;
let client: VoiceEval;
beforeAll(async () => {
  double = await startOpenAiDouble({ auth: { header: 'authorization', value: `Bearer ${KEY}` } });
  h = await createSdkHarness({ fetchAllowlist: ['127.0.0.1'] });
  client = h.sdk();
  await client.aiProviders.create({
    provider: 'openai',
    name: 'Double',
    api_key: KEY,
    endpoint_url: double.url,
  });
});
afterAll(() => double?.close());

/** An import of `n` uploaded recordings (`rec-1.wav`...). */
const importRecordings = async (n: number) => {
  const schema = await client.callImportSchemas.create({
    name: unique('Audio'),
    parameters: [{ name: 'id', type: 'conversation_id', is_required: true }],
  });
  const files = Array.from({ length: n }, (_, i) => ({
    data: silentWav(200, i),
    filename: `rec-${i + 1}.wav`,
  }));
  return client.callImports.create({ schema_id: schema.id, files });
};

describe('transcription', () => {
  it('transcribe queues rows (202); waitForTranscription resolves once the workers are done', async () => {
    const imported = await importRecordings(2);
    double.enqueue('/v1/chat/completions', chatReply({ turns: TURNS }), chatReply({ turns: TURNS }));
    const queued = await client.callImports.transcribe(imported.id, STT_LLM).withResponse();
    expect(queued.response.status).toBe(202);
    expect(queued.data).toEqual({ queued: 2, skipped_rows: 0, skipped_reason_counts: {}, accepted: true });
    const progress: Array<{ pending: number; running: number }> = [];
    const detail = await client.callImports.waitForTranscription(imported.id, {
      intervalMs: 50,
      timeoutMs: 20_000,
      onProgress: (p) => progress.push(p),
    });
    expect(progress.at(-1)).toEqual({ pending: 0, running: 0 });
    expect(detail).toMatchObject({ completed_rows: 2, failed_rows: 0 });
    for (const row of detail.rows) {
      expect(row).toMatchObject({ diarised_transcript_status: 'completed', diarised_transcript: TURNS });
    }
    const uploads = double.requests.filter((r) => r.path === '/v1/audio/transcriptions');
    expect(uploads.map((r) => r.multipart?.file?.name).sort()).toEqual(['rec-1.wav', 'rec-2.wav']);
  });

  it('nothing to do answers accepted: false with the skip reasons', async () => {
    const imported = await importCalls(client, [
      { id: 'with-text', transcript: 'hello' },
      { id: 'silent', transcript: null },
    ]);
    await expect(
      client.callImports.transcribe(imported.id, { mode: 'llm_only', only_missing: true }),
    ).resolves.toEqual({
      queued: 0,
      skipped_rows: 2,
      skipped_reason_counts: { has_source_transcript: 1, no_audio: 1 },
      accepted: false,
    });
  });

  it('cancelDiarisation fails queued and running rows as cancelled; waiting then ends', async () => {
    const imported = await importRecordings(1);
    double.setLatency(3_000);
    try {
      await client.callImports.transcribe(imported.id, STT_LLM);
      const cancelled = await client.callImports.cancelDiarisation(imported.id);
      expect(cancelled).toEqual({ cancelled: 1, skipped: 0 });
      const detail = await client.callImports.waitForTranscription(imported.id, {
        intervalMs: 50,
        timeoutMs: 5_000,
      });
      expect(detail.rows[0]).toMatchObject({
        diarised_transcript_status: 'failed',
        diarised_transcript_error: { code: 'cancelled' },
      });
      const failed = await client.callImports.rowIds(imported.id, { diarised_status: 'failed' });
      expect(failed.total).toBe(1);
    } finally {
      double.setLatency(0);
    }
  });

  it('mode rules are 422 problems with field paths; unknown providers and imports too', async () => {
    const imported = await importRecordings(1);
    const missing = await expectApiError(
      client.callImports.transcribe(imported.id, {}),
      UnprocessableEntityError,
      422,
      'validation_failed',
    );
    expect(missing.errors.map((e) => e.path).sort()).toEqual(['body.stt_model', 'body.stt_provider']);
    await expectApiError(
      client.callImports.transcribe(imported.id, { ...STT_LLM, stt_provider: 'groq' }),
      UnprocessableEntityError,
      422,
      'ai_provider_not_configured',
    );
    await expectApiError(
      client.callImports.transcribe(randomUUID(), { mode: 'llm_only' }),
      NotFoundError,
      404,
      'not_found',
    );
    await expectApiError(client.callImports.cancelDiarisation(randomUUID()), NotFoundError, 404, 'not_found');
  });
});
