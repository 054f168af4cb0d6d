import { ProductionCallSubmitResultSchema } from '@voice-eval/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectProblem } from '../../../test/access-rules.js';
import { type RecordingsDouble, silentWav, startRecordingsDouble } from '../../../test/doubles/recordings.js';
import { createAiProvider } from '../../../test/factories/call-imports.js';
import { makeMetric } from '../../../test/factories/evaluations.js';
import { makeAgent } from '../../../test/factories/evaluators.js';
import { makeMonitor, monitorSettled } from '../../../test/factories/monitors.js';
import { settledRecording } from '../../../test/factories/production-calls.js';
import { createHarness, type Harness } from '../../../test/harness.js';
import { chatReply, type OpenAiDouble, startOpenAiDouble } from '../../testing/openai-compatible.js';

let h: Harness;
let recordings: RecordingsDouble;
let openai: OpenAiDouble;
let agentId: string;

const submit = async (body: Record<string, unknown>, role: 'MEMBER' | 'READER' = 'MEMBER') =>
  h.request('POST', '/api/v1/production-calls', {
    headers: await h.as(role),
    body: { agent_id: agentId, ...body },
  });

beforeAll(async () => {
  recordings = await startRecordingsDouble();
  openai = await startOpenAiDouble({ auth: { header: 'authorization', value: 'Bearer sk-double' } });
  h = await createHarness({ fetchAllowlist: ['127.0.0.1'] });
  const provider = await createAiProvider(h, h, openai.url);
  // calls without turns are transcribed with the organization's default models
  const models = await h.request('PATCH', `/api/v1/aiproviders/${provider}`, {
    headers: await h.as('OWNER'),
    body: { enabled_models: ['gpt-4o-mini', 'whisper-1'] },
  });
  expect(models.status, JSON.stringify(models.body)).toBe(200);
  agentId = (await makeAgent(h, h)).id;
});
afterAll(async () => {
  await recordings.close();
  await openai.close();
});

describe('POST /production-calls', () => {
  it('is 202 with the new call and its row, then 200 with the same call for a repeat', async () => {
    const body = {
      external_call_id: 'lk-room-1',
      provider: 'livekit',
      started_at: '2026-11-01T10:00:00Z',
      duration_ms: 61_000,
      end_reason: 'participant_left',
      transcript: [
        { role: 'agent', text: 'Thanks for calling.', start_ms: 0, end_ms: 1200 },
        { role: 'user', text: 'Where is my parcel?', start_ms: 1500, end_ms: 2900 },
      ],
      metadata: { campaign: 'q4', priority: 2 },
      tags: ['tier-1', 'tier-1'],
    };
    const first = await submit(body);
    expect(first.status, JSON.stringify(first.body)).toBe(202);
    const created = ProductionCallSubmitResultSchema.parse(first.body);
    expect(created).toMatchObject({
      deduplicated: false,
      production_call: {
        provider: 'livekit',
        agent_id: agentId,
        ended_at: '2026-11-01T10:01:01.000Z',
        turn_count: 2,
        tags: ['tier-1'],
        metadata: { campaign: 'q4', priority: 2 },
        recording_status: 'none',
        events: ['submitted'],
      },
    });
    const row = await h
      .db('call_import_rows')
      .where({ id: created.production_call.call_import_row_id })
      .first();
    expect(row).toMatchObject({
      conversation_id: 'lk-room-1',
      diarised_transcript_status: 'completed',
      diarised_transcript: body.transcript.map(({ role, ...turn }) => ({ speaker: role, ...turn })),
    });
    const again = await submit({ ...body, end_reason: 'changed' });
    expect(again.status).toBe(200);
    expect(again.body).toEqual({
      production_call: created.production_call,
      deduplicated: true,
      sampled: false,
    });
    // the same id from another provider is another call
    expect((await submit({ ...body, provider: 'pipecat' })).status).toBe(202);
  });

  it("reads a platform's native transcript with its push parser", async () => {
    const reply = await submit({
      external_call_id: 'retell-native-1',
      provider: 'retell',
      transcript_format: 'retell',
      transcript: [
        {
          role: 'agent',
          content: 'Hello there.',
          words: [
            { word: 'Hello', start: 0.5, end: 0.8 },
            { word: ' there.', start: 0.8, end: 1.25 },
          ],
        },
        { role: 'transfer_target', content: 'Transferred.', words: [] },
      ],
    });
    expect(reply.status).toBe(202);
    const row = await h
      .db('call_import_rows')
      .where({ id: reply.body.production_call.call_import_row_id })
      .first();
    expect(row.diarised_transcript).toEqual([
      { speaker: 'agent', text: 'Hello there.', start_ms: 500, end_ms: 1250 },
    ]);
  });

  it("waits for a recorded call's transcript before its monitor has it judged", async () => {
    const agent = await makeAgent(h, h);
    const headers = await h.as('MEMBER');
    const metric = await makeMetric(h, headers);
    const monitor = await makeMonitor(h, headers, {
      agent_id: agent.id,
      name: 'Recorded',
      metric_ids: [metric.id],
    });
    recordings.serve('monitored-call.wav', silentWav(1600));
    openai.enqueue(
      '/v1/chat/completions',
      chatReply({ turns: [{ speaker: 'agent', text: 'Your parcel ships today.' }] }),
    );
    const reply = await submit({
      agent_id: agent.id,
      external_call_id: 'monitored-1',
      recording: { url: recordings.urlOf('monitored-call.wav') },
    });
    expect(reply.body.sampled).toBe(true);
    await monitorSettled(h, monitor.id, 1);
    const call = await h.db('monitor_calls').where({ monitor_id: monitor.id }).first();
    const row = await h.db('call_import_rows').where({ id: call.call_import_row_id }).first();
    expect(row.diarised_transcript_status).toBe('completed');
    // queued once the transcript was written: the judge had it (its own reply aside)
    const scored = await h.db('evaluation_rows').where({ id: call.evaluation_row_id }).first();
    expect(scored.error?.code ?? null).not.toBe('transcript_unavailable');
    expect(
      openai.requests.some(
        (r) =>
          r.path === '/v1/chat/completions' && JSON.stringify(r.json).includes('Your parcel ships today.'),
      ),
    ).toBe(true);
  });

  it('downloads a recording given by URL and transcribes it when no turns came', async () => {
    recordings.serve('mono-call.wav', silentWav(1600));
    openai.enqueue(
      '/v1/chat/completions',
      chatReply({ turns: [{ speaker: 'agent', text: 'transcribed by the double' }] }),
    );
    const reply = await submit({
      external_call_id: 'home-grown-1',
      recording: { url: recordings.urlOf('mono-call.wav') },
    });
    expect(reply.status).toBe(202);
    const call = await settledRecording(h, reply.body.production_call.id);
    expect(call.recording_status).toBe('stored');
    await expect
      .poll(
        async () =>
          (await h.db('call_import_rows').where({ id: call.call_import_row_id }).first())
            .diarised_transcript_status,
        { timeout: 15_000, interval: 50 },
      )
      .toMatch(/^(completed|failed)$/);
    expect(
      openai.requests.filter((r) => r.path === '/v1/audio/transcriptions').at(-1)?.multipart?.fields.model,
    ).toBe('whisper-1');
    const row = await h.db('call_import_rows').where({ id: call.call_import_row_id }).first();
    expect(row.diarised_transcript_error).toBeNull();
    expect(row.diarised_transcript).toEqual([{ speaker: 'agent', text: 'transcribed by the double' }]);
  });

  it('refuses bad input with a problem naming the field, storing nothing', async () => {
    const before = await h.db('production_calls').count({ n: '*' }).first();
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ external_call_id: '' }, 'body.external_call_id'],
      [
        { external_call_id: 'x', started_at: '2026-11-01T10:00:00Z', ended_at: '2026-11-01T09:00:00Z' },
        'body.ended_at',
      ],
      // 57 days: more than a call lasts, and more milliseconds than the column holds (found by the fuzzer)
      [
        { external_call_id: 'x', started_at: '2026-03-13T18:00:00Z', ended_at: '2026-05-09T08:00:00Z' },
        'body.ended_at',
      ],
      [{ external_call_id: 'x', transcript: [{ role: 'narrator', text: 'hm' }] }, 'body.transcript.0.role'],
      [{ external_call_id: 'x', transcript: 'Agent: hi' }, 'body.transcript'],
      [{ external_call_id: 'x', recording: { url: 'ftp://example.test/a.wav' } }, 'body.recording.url'],
      [{ external_call_id: 'x', provider: 'Not A Provider!' }, 'body.provider'],
      [{ external_call_id: 'x', transcript_format: 'vapi', transcript: { messages: [] } }, 'body.transcript'],
    ];
    for (const [body, path] of cases) {
      const reply = await submit(body);
      expect(reply.status, `${path}: ${JSON.stringify(reply.body)}`).toBe(422);
      expect(reply.body.errors.map((e: { path: string }) => e.path)).toContain(path);
    }
    expectProblem(await submit({ external_call_id: 'x', agent_id: crypto.randomUUID() }), 404, 'not_found');
    const other = await h.createTenant();
    const foreignAgent = await makeAgent(h, other);
    expectProblem(await submit({ external_call_id: 'x', agent_id: foreignAgent.id }), 404, 'not_found');
    expectProblem(await submit({ external_call_id: 'x' }, 'READER'), 403, 'forbidden');
    expect(await h.db('production_calls').count({ n: '*' }).first()).toEqual(before);
  });
});

describe('GET /production-calls', () => {
  it('lists the workspace newest first with filters, and 404s another tenant', async () => {
    const agent = await makeAgent(h, h);
    for (const id of ['a', 'b', 'c']) {
      expect(
        (await submit({ agent_id: agent.id, external_call_id: `list-${id}`, provider: 'pipecat' })).status,
      ).toBe(202);
    }
    const headers = await h.as('READER');
    const list = await h.request('GET', `/api/v1/production-calls?agent_id=${agent.id}&page_size=2`, {
      headers,
    });
    expect(list.body).toMatchObject({ total: 3, page_size: 2 });
    expect(list.body.items.map((c: { external_call_id: string }) => c.external_call_id)).toEqual([
      'list-c',
      'list-b',
    ]);
    const future = await h.request(
      'GET',
      `/api/v1/production-calls?agent_id=${agent.id}&received_after=2099-01-01T00:00:00Z`,
      { headers },
    );
    expect(future.body.total).toBe(0);
    const none = await h.request('GET', `/api/v1/production-calls?recording_status=stored&provider=pipecat`, {
      headers,
    });
    expect(none.body.total).toBe(0);
    expectProblem(
      await h.request('GET', '/api/v1/production-calls?recording_status=lost', { headers }),
      422,
      'validation_failed',
    );
    const other = await h.createTenant();
    const id = list.body.items[0].id;
    expectProblem(
      await h.request('GET', `/api/v1/production-calls/${id}`, { headers: await other.as('OWNER') }),
      404,
      'not_found',
    );
  });
});
