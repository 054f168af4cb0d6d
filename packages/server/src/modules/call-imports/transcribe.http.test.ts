import type { CallImport } from '@voice-eval/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectProblem } from '../../../test/access-rules.js';
import {
  callRows,
  countersOf,
  createAiProvider,
  createSchema,
  importCsv,
  postAction,
  rowsOf,
  STT,
} from '../../../test/factories/call-imports.js';
import { createHarness, type Harness } from '../../../test/harness.js';
import { type OpenAiDouble, startOpenAiDouble } from '../../testing/openai-compatible.js';

let h: Harness;
let double: OpenAiDouble;
let schemaId: string;

const path = (id: string, action: string) => `/api/v1/call-imports/${id}/${action}`;
const idsOf = async (id: string) => (await rowsOf(h, id)).map((r) => r.id as string);
const setStatus = (rowId: string, status: string | null) =>
  h.db('call_import_rows').where('id', rowId).update({ diarised_transcript_status: status });

const counters = (id: string) => countersOf(h, id);

/** Rows 1-7: audio, source transcript, nothing, and four more with audio, in varied states. */
const seedStates = async (): Promise<{ imp: CallImport; ids: string[] }> => {
  const rows = callRows(7, (i) =>
    i === 1 ? { transcript: 'hello' } : i === 2 ? {} : { recording: `https://r.example/${i}.wav` },
  );
  const imp = await importCsv(h, h, schemaId, rows);
  const ids = await idsOf(imp.id);
  await setStatus(ids[3]!, 'completed');
  await setStatus(ids[4]!, 'pending');
  await setStatus(ids[5]!, 'running');
  await setStatus(ids[6]!, 'failed');
  return { imp, ids };
};

beforeAll(async () => {
  h = await createHarness({ workerConcurrency: 0, fetchAllowlist: ['127.0.0.1'] });
  double = await startOpenAiDouble({ auth: { header: 'authorization', value: 'Bearer sk-double' } });
  schemaId = await createSchema(h, h);
  await createAiProvider(h, h, double.url);
});
afterAll(() => double.close());

describe('POST /call-imports/:id/transcribe: validation', () => {
  it('requires the STT fields in stt_llm mode (the default) and refuses them in llm_only mode', async () => {
    const { id } = await importCsv(h, h, schemaId, callRows(1));
    const missing = await postAction(h, id, 'transcribe', {});
    expectProblem(missing, 422, 'validation_failed');
    expect(missing.body.errors.map((e: { path: string }) => e.path).sort()).toEqual([
      'body.stt_model',
      'body.stt_provider',
    ]);
    const extra = await postAction(h, id, 'transcribe', {
      mode: 'llm_only',
      stt_model: 'whisper-1',
      stt_provider: null,
    });
    expect(extra.body.errors).toEqual([
      { path: 'body.stt_model', message: 'Must be omitted or null in llm_only mode' },
    ]);
    expectProblem(await postAction(h, id, 'transcribe', { mode: 'magic' }), 422, 'validation_failed');
    expectProblem(
      await postAction(h, id, 'transcribe', { mode: 'llm_only', row_ids: ['nope'] }),
      422,
      'validation_failed',
    );
  });

  it('is 422 ai_provider_not_configured without a usable provider, and 404 for unknown imports', async () => {
    const other = await h.createTenant();
    const otherImport = await importCsv(h, other, await createSchema(h, other), callRows(1));
    const reply = await h.request('POST', path(otherImport.id, 'transcribe'), {
      headers: await other.as('MEMBER'),
      body: { mode: 'llm_only' },
    });
    expectProblem(reply, 422, 'ai_provider_not_configured');
    const { id } = await importCsv(h, h, schemaId, callRows(1));
    const stt = await postAction(h, id, 'transcribe', { ...STT, stt_provider: 'groq' });
    expectProblem(stt, 422, 'ai_provider_not_configured');
    expectProblem(
      await postAction(h, crypto.randomUUID(), 'transcribe', { mode: 'llm_only' }),
      404,
      'not_found',
    );
  });
});

describe('POST /call-imports/:id/transcribe: set-based queueing', () => {
  it('queues eligible rows and counts every skipped row by reason', async () => {
    const { imp, ids } = await seedStates();
    const unknown = crypto.randomUUID();
    const reply = await postAction(h, imp.id, 'transcribe', { ...STT, row_ids: [...ids, ids[0], unknown] });
    expect(reply.status).toBe(202);
    expect(reply.body).toEqual({
      queued: 3,
      skipped_rows: 5,
      skipped_reason_counts: { no_audio: 1, already_transcribed: 1, in_progress: 2, not_found: 1 },
      accepted: true,
    });
    const rows = await rowsOf(h, imp.id);
    expect(rows.map((r) => r.diarised_transcript_status)).toEqual([
      'pending',
      'pending',
      null,
      'completed',
      'pending',
      'running',
      'pending',
    ]);
    const diarisation = rows[0].diarisation_id;
    expect([rows[1].diarisation_id, rows[6].diarisation_id]).toEqual([diarisation, diarisation]);
    expect(rows[4].diarisation_id).toBeNull();
    expect(await h.db('call_import_diarisations').where('id', diarisation).first()).toMatchObject({
      mode: 'stt_llm',
      stt_provider: 'openai',
      stt_model: 'whisper-1',
    });
  });

  it('skips rows with a source transcript when only_missing, and re-queues completed ones when overwriting', async () => {
    const { imp, ids } = await seedStates();
    const reply = await postAction(h, imp.id, 'transcribe', {
      mode: 'llm_only',
      only_missing: true,
      overwrite_existing: true,
    });
    expect(reply.body).toEqual({
      queued: 3,
      skipped_rows: 4,
      skipped_reason_counts: { has_source_transcript: 1, no_audio: 1, in_progress: 2 },
      accepted: true,
    });
    const rows = await rowsOf(h, imp.id);
    expect(
      rows
        .filter((r) => r.diarised_transcript_status === 'pending')
        .map((r) => r.id)
        .sort(),
    ).toEqual([ids[0], ids[3], ids[4], ids[6]].sort());
    expect(await counters(imp.id)).toMatchObject({ stored: { completed_rows: 0, failed_rows: 0 } });
  });

  it('answers accepted=false when nothing is queued, and an empty row_ids list touches nothing', async () => {
    const { imp } = await seedStates();
    await postAction(h, imp.id, 'transcribe', STT);
    const again = await postAction(h, imp.id, 'transcribe', STT);
    expect(again.body).toEqual({
      queued: 0,
      skipped_rows: 7,
      skipped_reason_counts: { in_progress: 5, no_audio: 1, already_transcribed: 1 },
      accepted: false,
    });
    expect((await postAction(h, imp.id, 'transcribe', { ...STT, row_ids: [] })).body).toEqual({
      queued: 0,
      skipped_rows: 0,
      skipped_reason_counts: {},
      accepted: false,
    });
  });

  it('keeps the completed/failed counters equal to the rows through every transition', async () => {
    const { imp, ids } = await seedStates();
    expect((await counters(imp.id)).stored).toEqual({ completed_rows: 1, failed_rows: 1 });
    await postAction(h, imp.id, 'transcribe', { mode: 'llm_only', overwrite_existing: true });
    expect((await counters(imp.id)).stored).toEqual({ completed_rows: 0, failed_rows: 0 });
    await postAction(h, imp.id, 'cancel-diarisation', { row_ids: [ids[0], ids[1]] });
    const after = await counters(imp.id);
    expect(after.stored).toEqual({ completed_rows: 0, failed_rows: 2 });
    expect(after.stored).toEqual(after.counted);
  });
});

describe('POST /call-imports/:id/cancel-diarisation', () => {
  it('cancels every pending and running row and skips the others', async () => {
    const { imp, ids } = await seedStates();
    const reply = await postAction(h, imp.id, 'cancel-diarisation', {});
    expect(reply.status).toBe(200);
    expect(reply.body).toEqual({ cancelled: 2, skipped: 5 });
    const rows = await rowsOf(h, imp.id);
    for (const row of [rows[4], rows[5]]) {
      expect(row).toMatchObject({ diarised_transcript_status: 'failed', lease_owner: null });
      expect(row.diarised_transcript_error).toMatchObject({ code: 'cancelled', provider: null, model: null });
    }
    expect(rows[3].diarised_transcript_status).toBe('completed');
    expect((await counters(imp.id)).stored).toEqual({ completed_rows: 1, failed_rows: 3 });
    expect((await postAction(h, imp.id, 'cancel-diarisation', { row_ids: null })).body).toEqual({
      cancelled: 0,
      skipped: 7,
    });
    expect(ids).toHaveLength(7);
  });

  it('limits cancelling to the listed rows; unknown ids count as skipped', async () => {
    const { imp, ids } = await seedStates();
    const reply = await postAction(h, imp.id, 'cancel-diarisation', {
      row_ids: [ids[4], ids[3], crypto.randomUUID()],
    });
    expect(reply.body).toEqual({ cancelled: 1, skipped: 2 });
    expect((await rowsOf(h, imp.id))[5].diarised_transcript_status).toBe('running');
    expectProblem(await postAction(h, crypto.randomUUID(), 'cancel-diarisation', {}), 404, 'not_found');
  });
});
