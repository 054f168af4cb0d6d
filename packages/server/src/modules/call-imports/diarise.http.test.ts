import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RecordingsDouble, silentWav, startRecordingsDouble } from '../../../test/doubles/recordings.js';
import {
  callRows,
  createAiProvider,
  createSchema,
  importCsv,
  upload,
} from '../../../test/factories/call-imports.js';
import { createHarness, type Harness } from '../../../test/harness.js';
import {
  chatReply,
  errorReply,
  type OpenAiDouble,
  startOpenAiDouble,
} from '../../testing/openai-compatible.js';

let h: Harness;
let openai: OpenAiDouble;
let recordings: RecordingsDouble;
let schemaId: string;

const TURNS = [
  { speaker: 'agent', text: 'Thanks for calling, how can I help?' },
  { speaker: 'user', text: 'My order is late.' },
];
const STT_LLM = { stt_provider: 'openai', stt_model: 'whisper-1', diarization_llm_model: 'gpt-4o-mini' };
const AUDIO_MODEL = 'gpt-4o-audio-preview';

const transcribe = async (id: string, body: unknown) => {
  const reply = await h.request('POST', `/api/v1/call-imports/${id}/transcribe`, {
    headers: await h.as('MEMBER'),
    body,
  });
  expect(reply.status, JSON.stringify(reply.body)).toBe(202);
  return reply.body;
};

/** The import's rows once none is pending or running (the real worker loop runs them). */
const settled = async (id: string) => {
  await expect
    .poll(
      async () =>
        (
          await h
            .db('call_import_rows')
            .where('call_import_id', id)
            .whereIn('diarised_transcript_status', ['pending', 'running'])
        ).length,
      { timeout: 20_000, interval: 50 },
    )
    .toBe(0);
  const detail = await h.request('GET', `/api/v1/call-imports/${id}?row_limit=5000`, {
    headers: await h.as('READER'),
  });
  return detail.body;
};

const newRequests = (from: number, path: string) =>
  openai.requests.slice(from).filter((r) => r.path === path);

beforeAll(async () => {
  openai = await startOpenAiDouble({ auth: { header: 'authorization', value: 'Bearer sk-double' } });
  recordings = await startRecordingsDouble();
  h = await createHarness({ fetchAllowlist: ['127.0.0.1'] });
  schemaId = await createSchema(h, h);
  await createAiProvider(h, h, openai.url);
  for (let i = 1; i <= 6; i++) recordings.serve(`call-${i}.wav`, silentWav(400, i));
  recordings.serve('notes.wav', Buffer.from('this is not audio at all'));
  recordings.redirect('to-metadata', 'http://169.254.169.254/latest/meta-data');
});
afterAll(async () => {
  await openai.close();
  await recordings.close();
});

describe('diarisation workers', () => {
  it('stt_llm: transcribes recordings, diarises the text, and skips STT for source transcripts', async () => {
    const imp = await importCsv(
      h,
      h,
      schemaId,
      callRows(4, (i) =>
        i === 3
          ? { transcript: 'agent: hi. user: hello.' }
          : { recording: recordings.urlOf(`call-${i + 1}.wav`) },
      ),
    );
    const from = openai.requests.length;
    openai.enqueue('/v1/chat/completions', ...Array.from({ length: 4 }, () => chatReply({ turns: TURNS })));
    expect(
      await transcribe(imp.id, { ...STT_LLM, diarization_prompt: 'The agent works for ACME.' }),
    ).toMatchObject({ queued: 4 });
    const detail = await settled(imp.id);
    expect(detail).toMatchObject({ completed_rows: 4, failed_rows: 0 });
    for (const row of detail.rows) {
      expect(row).toMatchObject({
        diarised_transcript_status: 'completed',
        diarised_transcript: TURNS,
        diarised_transcript_error: null,
      });
    }
    const stt = newRequests(from, '/v1/audio/transcriptions');
    expect(stt.map((r) => r.multipart?.file?.name).sort()).toEqual([
      'conv-1.wav',
      'conv-2.wav',
      'conv-3.wav',
    ]);
    expect(stt.every((r) => r.multipart?.fields.model === 'whisper-1')).toBe(true);
    const chats = newRequests(from, '/v1/chat/completions');
    expect(chats).toHaveLength(4);
    const prompts = chats.map((r) => JSON.stringify(r.json));
    expect(prompts.filter((p) => p.includes('transcribed by the double'))).toHaveLength(3);
    expect(prompts.filter((p) => p.includes('agent: hi. user: hello.'))).toHaveLength(1);
    expect(prompts.every((p) => p.includes('The agent works for ACME.') && p.includes('gpt-4o-mini'))).toBe(
      true,
    );
    expect(recordings.fetches('call-1.wav')).toBe(1);
  });

  it('llm_only: one multimodal pass over uploaded and fetched recordings', async () => {
    const files = [1, 2].map((i) => ({
      field: 'files' as const,
      name: `upload-${i}.wav`,
      bytes: silentWav(300, i),
    }));
    const audioSchema = await createSchema(h, h, [
      { name: 'id', type: 'conversation_id', is_required: true },
    ]);
    const uploaded = await upload(h, await h.as('MEMBER'), { schema_id: audioSchema }, files);
    const from = openai.requests.length;
    openai.enqueue(
      '/v1/chat/completions',
      chatReply({ turns: TURNS, language: 'en' }),
      chatReply({ turns: TURNS, language: 'en' }),
    );
    expect(
      await transcribe(uploaded.body.id, { mode: 'llm_only', diarization_llm_model: AUDIO_MODEL }),
    ).toMatchObject({ queued: 2 });
    const detail = await settled(uploaded.body.id);
    expect(
      detail.rows.map((r: { diarised_transcript_status: string }) => r.diarised_transcript_status),
    ).toEqual(['completed', 'completed']);
    const chats = newRequests(from, '/v1/chat/completions');
    expect(chats).toHaveLength(2);
    const parts = chats
      .flatMap((r) => (r.json as { messages: Array<{ content: unknown }> }).messages.map((m) => m.content))
      .flat();
    expect(parts.filter((p) => (p as { type?: string }).type === 'input_audio')).toHaveLength(2);
    expect(newRequests(from, '/v1/audio/transcriptions')).toHaveLength(0);
  });

  it('leaves a typed error on rows a model cannot hear, and on unreachable or refused recordings', async () => {
    const urls = [
      recordings.urlOf('call-5.wav'),
      recordings.urlOf('notes.wav'),
      'http://10.0.0.1/private.wav',
      `${recordings.url}/redirect/to-metadata`,
      recordings.urlOf('missing.wav'),
    ];
    const imp = await importCsv(
      h,
      h,
      schemaId,
      callRows(5, (i) => ({ recording: urls[i] })),
    );
    const from = openai.requests.length;
    await transcribe(imp.id, { mode: 'llm_only', diarization_llm_model: 'gpt-4o-mini' });
    const detail = await settled(imp.id);
    expect(detail).toMatchObject({ completed_rows: 0, failed_rows: 5 });
    // the import's diarisation: every row, failed ones counted by code
    expect(detail.diarisation).toEqual({
      pending: 0,
      running: 0,
      completed: 0,
      failed: 5,
      errors_by_code: { provider_audio_unsupported: 1, audio_unavailable: 4 },
    });
    const errors = detail.rows.map(
      (r: { diarised_transcript_error: unknown }) => r.diarised_transcript_error,
    );
    expect(errors[0]).toMatchObject({
      code: 'provider_audio_unsupported',
      provider: 'openai',
      model: 'gpt-4o-mini',
    });
    expect(errors[1]).toMatchObject({
      code: 'audio_unavailable',
      message: expect.stringContaining('not a WAV'),
    });
    expect(errors[2]).toMatchObject({
      code: 'audio_unavailable',
      message: expect.stringContaining('not allowed'),
    });
    expect(errors[3]).toMatchObject({
      code: 'audio_unavailable',
      message: expect.stringContaining('not allowed'),
    });
    expect(errors[4]).toMatchObject({ code: 'audio_unavailable', message: expect.stringContaining('404') });
    for (const error of errors) expect(Date.parse(error.at)).not.toBeNaN();
    expect(newRequests(from, '/v1/chat/completions')).toHaveLength(0);
  });

  it('records provider failures and malformed replies as typed errors', async () => {
    const imp = await importCsv(
      h,
      h,
      schemaId,
      callRows(2, (i) => ({ recording: recordings.urlOf(`call-${i + 1}.wav`) })),
    );
    openai.enqueue('/v1/audio/transcriptions', errorReply(400, 'unsupported audio'), {
      json: { text: 'fine' },
    });
    openai.enqueue('/v1/chat/completions', chatReply({ nonsense: true }));
    await transcribe(imp.id, STT_LLM);
    const detail = await settled(imp.id);
    const codes = detail.rows
      .map((r: { diarised_transcript_error: { code: string } }) => r.diarised_transcript_error.code)
      .sort();
    expect(codes).toEqual(['invalid_provider_response', 'provider_error']);
    expect(detail).toMatchObject({ failed_rows: 2, completed_rows: 0 });
  });

  it('a row cancelled while its worker runs stays cancelled', async () => {
    recordings.setLatency(1_500);
    try {
      const imp = await importCsv(
        h,
        h,
        schemaId,
        callRows(1, () => ({ recording: recordings.urlOf('call-6.wav') })),
      );
      openai.enqueue('/v1/chat/completions', chatReply({ turns: TURNS }));
      await transcribe(imp.id, STT_LLM);
      await expect
        .poll(
          async () =>
            (await h.db('call_import_rows').where('call_import_id', imp.id).first())
              .diarised_transcript_status,
        )
        .toBe('running');
      const cancel = await h.request('POST', `/api/v1/call-imports/${imp.id}/cancel-diarisation`, {
        headers: await h.as('MEMBER'),
        body: {},
      });
      expect(cancel.body).toEqual({ cancelled: 1, skipped: 0 });
      await expect.poll(() => recordings.fetches('call-6.wav'), { timeout: 10_000 }).toBe(1);
      await new Promise((resolve) => setTimeout(resolve, 300));
      const detail = await settled(imp.id);
      expect(detail.rows[0]).toMatchObject({
        diarised_transcript_status: 'failed',
        diarised_transcript: null,
      });
      expect(detail.rows[0].diarised_transcript_error.code).toBe('cancelled');
      expect(detail).toMatchObject({ failed_rows: 1, completed_rows: 0 });
    } finally {
      recordings.setLatency(0);
    }
  });
});
