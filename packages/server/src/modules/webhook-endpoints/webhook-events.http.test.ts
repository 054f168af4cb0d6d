import type { WebhookEndpointWithSecret } from '@voice-eval/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startWebhookReceiver, type WebhookReceiver } from '../../../test/doubles/webhook-receiver.js';
import { callRows, createAiProvider, createSchema, importCsv } from '../../../test/factories/call-imports.js';
import { createHarness, type Harness } from '../../../test/harness.js';
import { chatReply, type OpenAiDouble, startOpenAiDouble } from '../../testing/openai-compatible.js';

/** `call_import.transcription.completed`: once per settled transcription, with its counts. */
let h: Harness;
let openai: OpenAiDouble;
let receiver: WebhookReceiver;
beforeAll(async () => {
  openai = await startOpenAiDouble({ auth: { header: 'authorization', value: 'Bearer sk-double' } });
  receiver = await startWebhookReceiver();
  h = await createHarness({ fetchAllowlist: ['127.0.0.1'] });
  await createAiProvider(h, h, openai.url);
});
afterAll(async () => {
  await openai.close();
  await receiver.close();
});

const TURNS = [
  { speaker: 'agent', text: 'Hello.' },
  { speaker: 'user', text: 'Hi.' },
];
const STT_LLM = { stt_provider: 'openai', stt_model: 'whisper-1', diarization_llm_model: 'gpt-4o-mini' };

describe('call_import.transcription.completed', () => {
  it('arrives once when the last queued row of an import settles, with the counts, and again for the next transcription', async () => {
    const reply = await h.request<WebhookEndpointWithSecret>('POST', '/api/v1/webhook-endpoints', {
      headers: await h.as('ADMIN'),
      body: { url: `${receiver.url}/hooks/transcribed`, events: ['call_import.transcription.completed'] },
    });
    receiver.setSecret('/hooks/transcribed', reply.body.secret);
    const schemaId = await createSchema(h, h);
    const imp = await importCsv(
      h,
      h,
      schemaId,
      callRows(3, (i) => ({ transcript: `agent: hi ${i}. user: hello.` })),
    );
    openai.enqueue('/v1/chat/completions', ...Array.from({ length: 3 }, () => chatReply({ turns: TURNS })));
    const headers = await h.as('MEMBER');
    const first = await h.request('POST', `/api/v1/call-imports/${imp.id}/transcribe`, {
      headers,
      body: STT_LLM,
    });
    expect(first.body).toMatchObject({ queued: 3 });
    await expect
      .poll(() => receiver.on('/hooks/transcribed').length, { timeout: 20_000, interval: 25 })
      .toBe(1);
    const [event] = receiver.on('/hooks/transcribed');
    expect(event!.verifyError).toBeNull();
    expect(event!.payload).toEqual({
      type: 'call_import.transcription.completed',
      timestamp: expect.any(String),
      data: {
        call_import_id: imp.id,
        workspace_id: h.workspaceId,
        queued_rows: 3,
        completed_rows: 3,
        failed_rows: 0,
      },
    });

    openai.enqueue('/v1/chat/completions', ...Array.from({ length: 3 }, () => chatReply({ turns: TURNS })));
    const again = await h.request('POST', `/api/v1/call-imports/${imp.id}/transcribe`, {
      headers,
      body: { ...STT_LLM, overwrite_existing: true },
    });
    expect(again.body).toMatchObject({ queued: 3 });
    await expect
      .poll(() => receiver.on('/hooks/transcribed').length, { timeout: 20_000, interval: 25 })
      .toBe(2);
    const events = await h.db('webhook_events').where({ type: 'call_import.transcription.completed' });
    expect(events).toHaveLength(2);
    expect(receiver.on('/hooks/transcribed')[1]!.headers['webhook-id']).not.toBe(
      event!.headers['webhook-id'],
    );
    const open = await h
      .db('call_import_diarisations')
      .where({ call_import_id: imp.id })
      .whereNull('settled_at');
    expect(open).toEqual([]);
  });
});
