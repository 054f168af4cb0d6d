import { describe, expect, it, vi } from 'vitest';
import { type Evaluation, PollTimeoutError, UserAbortError } from '../src/index.js';
import { useMockApi } from './helpers.js';

const { api, server, client } = useMockApi();
const fast = { intervalMs: 5 };

describe('evaluations.waitForCompletion', () => {
  it('polls until the evaluation is terminal, reporting progress', async () => {
    const evaluation = api.fixtures.evaluation({ total_rows: 2 });
    const states: Evaluation['status'][] = ['pending', 'running', 'running', 'completed'];
    let n = 0;
    server.use(
      api.mocks.evaluations.get(() => {
        const status = states[Math.min(n++, states.length - 1)]!;
        return { status: 200, body: { ...evaluation, status } };
      }),
    );
    const onProgress = vi.fn();
    const done = await client().evaluations.waitForCompletion(evaluation.id, { ...fast, onProgress });
    expect(done.status).toBe('completed');
    expect(onProgress.mock.calls.map(([e]) => (e as Evaluation).status)).toEqual(states);
  });

  it('gives up after timeoutMs with the last state', async () => {
    const evaluation = api.db.evaluations.create(api.fixtures.evaluation({ status: 'running' }));
    const error = await client()
      .evaluations.waitForCompletion(evaluation.id, { intervalMs: 10, timeoutMs: 40 })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(PollTimeoutError);
    expect((error as PollTimeoutError).lastValue).toMatchObject({ id: evaluation.id, status: 'running' });
  });

  it('stops when the signal aborts', async () => {
    const evaluation = api.db.evaluations.create(api.fixtures.evaluation({ status: 'running' }));
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 30);
    await expect(
      client().evaluations.waitForCompletion(evaluation.id, { intervalMs: 10, signal: controller.signal }),
    ).rejects.toBeInstanceOf(UserAbortError);
  });

  it('cancel makes a running evaluation cancelled, which is terminal', async () => {
    const evaluation = api.db.evaluations.create(api.fixtures.evaluation({ status: 'running' }));
    await client().evaluations.cancel(evaluation.id);
    await expect(client().evaluations.waitForCompletion(evaluation.id, fast)).resolves.toMatchObject({
      status: 'cancelled',
    });
  });
});

describe('callImports.waitForTranscription', () => {
  it('transcribe queues rows; the wait ends once no row is pending or running', async () => {
    const callImport = api.db.callImports.create(api.fixtures.callImport());
    const rows = api.db.callImportRows.createMany(3, (i) =>
      api.fixtures.callImportRow({ call_import_id: callImport.id, source_row: i + 1 }),
    );
    const c = client();
    const queued = await c.callImports.transcribe(callImport.id, {
      stt_provider: 'openai',
      stt_model: 'whisper-1',
    });
    expect(queued).toEqual({ queued: 3, skipped_rows: 0, skipped_reason_counts: {}, accepted: true });
    const progress: Array<{ pending: number; running: number }> = [];
    const finish = (i: number, status: 'running' | 'completed') =>
      api.db.callImportRows.update(rows[i]!.id, { diarised_transcript_status: status });
    const waiting = c.callImports.waitForTranscription(callImport.id, {
      intervalMs: 5,
      onProgress: (p) => {
        progress.push(p);
        if (progress.length === 1) finish(0, 'running');
        if (progress.length === 2) for (const i of [0, 1, 2]) finish(i, 'completed');
      },
    });
    const detail = await waiting;
    expect(progress).toEqual([
      { pending: 3, running: 0 },
      { pending: 2, running: 1 },
      { pending: 0, running: 0 },
    ]);
    expect(detail.rows.map((r) => r.diarised_transcript_status)).toEqual([
      'completed',
      'completed',
      'completed',
    ]);
  });

  it('transcribe skips rows in progress; cancel fails them with code cancelled', async () => {
    const callImport = api.db.callImports.create(api.fixtures.callImport());
    api.db.callImportRows.create(
      api.fixtures.callImportRow({ call_import_id: callImport.id, diarised_transcript_status: 'running' }),
    );
    const c = client();
    await expect(c.callImports.transcribe(callImport.id, { mode: 'llm_only' })).resolves.toMatchObject({
      queued: 0,
      skipped_reason_counts: { in_progress: 1 },
      accepted: false,
    });
    await expect(c.callImports.cancelDiarisation(callImport.id)).resolves.toEqual({
      cancelled: 1,
      skipped: 0,
    });
    const detail = await c.callImports.get(callImport.id, { diarised_status: 'failed' });
    expect(detail.rows[0]?.diarised_transcript_error?.code).toBe('cancelled');
  });
});

describe('evaluatorResults.waitForMetricClusters', () => {
  it('is idle before generation and completed after it', async () => {
    const c = client();
    await expect(c.evaluatorResults.metricClusters({ scope_key: 'a' })).resolves.toMatchObject({
      status: 'idle',
    });
    await expect(c.evaluatorResults.generateMetricClusters({ scope_key: 'a' })).resolves.toMatchObject({
      status: 'running',
    });
    const onProgress = vi.fn();
    const report = await c.evaluatorResults.waitForMetricClusters(
      { scope_key: 'a' },
      { ...fast, onProgress },
    );
    expect(report.status).toBe('completed');
    expect(onProgress).toHaveBeenCalledTimes(1);
  });
});
