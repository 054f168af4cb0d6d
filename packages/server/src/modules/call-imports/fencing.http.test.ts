import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
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
import { chatReply, type OpenAiDouble, startOpenAiDouble } from '../../testing/openai-compatible.js';
import { diariseCallImportRowTask } from '../../workers/tasks/diarise-call-import-row.js';

/** Fencing with the real task and leases, driven by hand (no worker loop) and an injected clock. */

let h: Harness;
let double: OpenAiDouble;
let schemaId: string;

const counters = (id: string) => countersOf(h, id);

beforeAll(async () => {
  h = await createHarness({ workerConcurrency: 0, fetchAllowlist: ['127.0.0.1'] });
  double = await startOpenAiDouble({ auth: { header: 'authorization', value: 'Bearer sk-double' } });
  schemaId = await createSchema(h, h);
  await createAiProvider(h, h, double.url);
});
afterAll(() => double.close());

describe('fencing', () => {
  const turns = (text: string) => chatReply({ turns: [{ speaker: 'agent', text }] });
  // the queue is shared by every import of the database: leave only each test's own rows in it
  beforeEach(() =>
    h.db('call_import_rows').whereIn('diarised_transcript_status', ['pending', 'running']).update({
      diarised_transcript_status: 'failed',
      lease_owner: null,
    }),
  );

  it('a worker that finishes after a cancel changes nothing', async () => {
    const imp = await importCsv(
      h,
      h,
      schemaId,
      callRows(1, () => ({ transcript: 'hello there' })),
    );
    await postAction(h, imp.id, 'transcribe', STT);
    const task = diariseCallImportRowTask(h.server.deps);
    const [claimed] = await task.claim('late-worker', 1);
    expect(claimed).toMatchObject({ diarised_transcript_status: 'running', attempts: 1 });
    expect((await postAction(h, imp.id, 'cancel-diarisation', {})).body).toEqual({
      cancelled: 1,
      skipped: 0,
    });
    double.enqueue('/v1/chat/completions', turns('too late'));
    const calls = double.requests.length;
    await task.run(claimed!, new AbortController().signal);
    expect(double.requests.slice(calls).map((r) => r.path)).toEqual(['/v1/chat/completions']);
    const [row] = await rowsOf(h, imp.id);
    expect(row).toMatchObject({ diarised_transcript_status: 'failed', diarised_transcript: null });
    expect(row.diarised_transcript_error.code).toBe('cancelled');
    expect((await counters(imp.id)).stored).toEqual({ completed_rows: 0, failed_rows: 1 });
  });

  it('a worker whose lease expired and was reclaimed changes nothing; the new lease holder wins', async () => {
    const imp = await importCsv(
      h,
      h,
      schemaId,
      callRows(1, () => ({ transcript: 'hello there' })),
    );
    await postAction(h, imp.id, 'transcribe', STT);
    const { deps } = h.server;
    const task = diariseCallImportRowTask(deps);
    const [first] = await task.claim('instance-a', 1);
    const realNow = deps.now;
    deps.now = () => new Date(realNow().getTime() + deps.config.diarisationLeaseMs + 1_000);
    try {
      expect(await task.sweep!()).toEqual({ requeued: 1, failed: 0 });
      const [second] = await task.claim('instance-b', 1);
      expect(second).toMatchObject({ id: first!.id, attempts: 2 });
      double.enqueue('/v1/chat/completions', turns('from the lost lease'), turns('from the new lease'));
      await task.run(first!, new AbortController().signal);
      expect((await rowsOf(h, imp.id))[0].diarised_transcript_status).toBe('running');
      await task.run(second!, new AbortController().signal);
    } finally {
      deps.now = realNow;
    }
    const [row] = await rowsOf(h, imp.id);
    expect(row, JSON.stringify(row.diarised_transcript_error)).toMatchObject({
      diarised_transcript_status: 'completed',
      lease_owner: null,
      attempts: 2,
    });
    expect(row.diarised_transcript).toEqual([{ speaker: 'agent', text: 'from the new lease' }]);
    expect((await counters(imp.id)).stored).toEqual({ completed_rows: 1, failed_rows: 0 });
  });

  it('fails a row with attempts_exhausted once its leases ran out', async () => {
    const imp = await importCsv(
      h,
      h,
      schemaId,
      callRows(1, () => ({ transcript: 'hello' })),
    );
    await postAction(h, imp.id, 'transcribe', STT);
    const { deps } = h.server;
    const task = diariseCallImportRowTask(deps);
    const realNow = deps.now;
    let offset = 0;
    deps.now = () => new Date(realNow().getTime() + offset);
    try {
      for (let attempt = 1; attempt <= deps.config.diarisationMaxAttempts; attempt++) {
        expect(await task.claim('dying-worker', 1)).toHaveLength(1);
        offset += deps.config.diarisationLeaseMs + 1_000;
        await task.sweep!();
      }
    } finally {
      deps.now = realNow;
    }
    const [row] = await rowsOf(h, imp.id);
    expect(row.diarised_transcript_status).toBe('failed');
    expect(row.diarised_transcript_error.code).toBe('attempts_exhausted');
    expect((await counters(imp.id)).stored).toEqual({ completed_rows: 0, failed_rows: 1 });
  });
});
