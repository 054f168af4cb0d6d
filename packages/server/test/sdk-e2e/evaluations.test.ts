/** Server, contract and SDK agree on evaluations: start (202), scoring by the workers, rows, cancel, problems. */
import { randomUUID } from 'node:crypto';
import {
  NotFoundError,
  PermissionDeniedError,
  UnprocessableEntityError,
  type VoiceEval,
} from '@voice-eval/sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defaultAnswer, type JudgeDouble, startJudgeDouble } from '../../src/testing/judge.js';
import { expectApiError, expectPagination } from './conformance.js';
import { importCalls, makeMetric, transcripts, unique } from './fixtures.js';
import { createSdkHarness, type SdkHarness } from './sdk-harness.js';

/** The judge answers per metric id from `answers`, else a valid default. */
const answers = new Map<string, unknown>();
let judge: JudgeDouble;
let h: SdkHarness;
let client: VoiceEval;
beforeAll(async () => {
  judge = await startJudgeDouble({
    answer: (m) => (answers.has(m.key) ? answers.get(m.key) : defaultAnswer(m)),
    // one quote from the call, and one it never had: the server keeps the first only
    evidence: () => [
      { quote: 'I need a refund', turn: 1 },
      { quote: 'Your refund is on its way', turn: 1 },
    ],
  });
  h = await createSdkHarness({
    env: {
      VOICE_EVAL_LLM_BASE_URL: judge.url,
      VOICE_EVAL_LLM_API_KEY: 'sk-judge',
      VOICE_EVAL_LLM_MODEL: 'judge',
    },
  });
  client = h.sdk();
});
afterAll(() => judge?.close());

const wait = { intervalMs: 50, timeoutMs: 20_000 };

describe('evaluations', () => {
  it('create answers 202 with pending rows; the workers score them; rows list results and filter', async () => {
    const imported = await importCalls(client, [
      ...transcripts(3, 'score'),
      { id: 'silent', transcript: null },
    ]);
    const passing = await makeMetric(client, { metric_type: 'boolean' });
    const failing = await makeMetric(client, { metric_type: 'boolean', capture_rationale: true });
    answers.set(failing.id, false);
    const started = await client.evaluations
      .create({ call_import_id: imported.id, metric_ids: [passing.id, failing.id] })
      .withResponse();
    expect(started.response.status).toBe(202);
    expect(started.data).toMatchObject({
      status: 'pending',
      total_rows: 3,
      pending_rows: 3,
      provider: 'default',
    });
    const done = await client.evaluations.waitForCompletion(started.data.id, wait);
    expect(done).toMatchObject({ status: 'completed', completed_rows: 3, pending_rows: 0, running_rows: 0 });
    const rows = await client.evaluations.listRows(done.id).toArray({ limit: 10 });
    expect(rows.map((r) => r.conversation_id).sort()).toEqual(['score-1', 'score-2', 'score-3']);
    expect(rows[0]?.results.map((r) => [r.metric_id, r.value, r.flagged])).toEqual([
      [passing.id, true, false],
      [failing.id, false, true],
    ]);
    expect(rows[0]?.results[1]?.rationale).toBe(`judged ${failing.id}`);
    // the quote the judge relied on, placed in the call's (one-line, speaker-labelled) transcript
    expect(rows[0]?.results.map((r) => r.evidence)).toEqual([
      [],
      [{ quote: 'I need a refund', turn_index: 0 }],
    ]);
    expect((await client.evaluations.listRows(done.id, { flagged: true })).total).toBe(3);
    expect((await client.evaluations.listRows(done.id, { flagged: false })).total).toBe(0);
    const ofOneCall = await client.evaluations.listRows(done.id, {
      call_import_row_id: rows[1]!.call_import_row_id,
    });
    expect(ofOneCall.items.map((r) => r.id)).toEqual([rows[1]!.id]);
    const ofNoCall = await client.evaluations.listRows(done.id, { call_import_row_id: randomUUID() });
    expect(ofNoCall.total).toBe(0);
    await expect(client.callImports.get(imported.id)).resolves.toMatchObject({
      latest_evaluation_status: 'completed',
    });
  });

  it('lists newest first across pages, filtered by import and status; rows paginate', async () => {
    const tenant = h.sdk({}, await h.createTenant());
    const imported = await importCalls(tenant, transcripts(5, 'page'));
    const metric = await makeMetric(tenant);
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) {
      const e = await tenant.evaluations.create({ call_import_id: imported.id, metric_ids: [metric.id] });
      ids.unshift(e.id);
      await tenant.evaluations.waitForCompletion(e.id, wait);
    }
    await expectPagination((q) => tenant.evaluations.list(q), ids, 2);
    expect((await tenant.evaluations.list({ call_import_id: imported.id, status: 'completed' })).total).toBe(
      3,
    );
    expect((await tenant.evaluations.list({ status: 'cancelled' })).total).toBe(0);
    const rowIds = (await tenant.evaluations.listRows(ids[0]!, { page_size: 100 })).items.map((r) => r.id);
    await expectPagination((q) => tenant.evaluations.listRows(ids[0]!, q), rowIds, 2);
  });

  it('cancel answers the cancelled evaluation, and again on a second call', async () => {
    const imported = await importCalls(client, transcripts(4, 'slow'));
    const metric = await makeMetric(client);
    judge.setLatency(3_000);
    try {
      const started = await client.evaluations.create({
        call_import_id: imported.id,
        metric_ids: [metric.id],
      });
      const cancelled = await client.evaluations.cancel(started.id);
      expect(cancelled).toMatchObject({
        id: started.id,
        status: 'cancelled',
        pending_rows: 0,
        running_rows: 0,
      });
      await expect(client.evaluations.cancel(started.id)).resolves.toMatchObject({ status: 'cancelled' });
      await expect(client.evaluations.waitForCompletion(started.id, wait)).resolves.toMatchObject({
        status: 'cancelled',
      });
      const rows = await client.evaluations.listRows(started.id, { status: 'cancelled' });
      expect(rows.total).toBe(4);
      expect(rows.items[0]?.error?.code).toBe('cancelled');
    } finally {
      judge.setLatency(0);
    }
  });

  it('bodies that break the rules are 422 problems; unknown references 404 problems', async () => {
    const imported = await importCalls(client, transcripts(1, 'rules'));
    const metric = await makeMetric(client);
    const neither = await expectApiError(
      client.evaluations.create({ call_import_id: imported.id }),
      UnprocessableEntityError,
      422,
      'validation_failed',
    );
    expect(neither.errors.map((e) => e.path)).toEqual(['body.metric_ids']);
    const draft = await client.metrics.createDraft({ name: unique('Draft') });
    await expectApiError(
      client.evaluations.create({ call_import_id: imported.id, metric_ids: [draft.id] }),
      UnprocessableEntityError,
      422,
      'rule_violation',
    );
    const stranger = await expectApiError(
      client.evaluations.create({
        call_import_id: imported.id,
        metric_ids: [metric.id],
        row_ids: [randomUUID()],
      }),
      UnprocessableEntityError,
      422,
      'rule_violation',
    );
    expect(stranger.errors).toEqual([{ path: 'body.row_ids.0', message: 'Not a row of this call import' }]);
    await expectApiError(
      client.evaluations.create({ call_import_id: randomUUID(), metric_ids: [metric.id] }),
      NotFoundError,
      404,
      'not_found',
    );
    await expectApiError(client.evaluations.get(randomUUID()), NotFoundError, 404, 'not_found');
    await expectApiError(client.evaluations.listRows(randomUUID()), NotFoundError, 404, 'not_found');
  });

  it("another organization's evaluations are 404 problems; readers cannot start one", async () => {
    const other = h.sdk({}, await h.createTenant());
    const theirs = await other.evaluations.create({
      call_import_id: (await importCalls(other, transcripts(1, 'theirs'))).id,
      metric_ids: [(await makeMetric(other)).id],
    });
    await expectApiError(client.evaluations.get(theirs.id), NotFoundError, 404, 'not_found');
    await expectApiError(client.evaluations.cancel(theirs.id), NotFoundError, 404, 'not_found');
    const reader = await h.sdkAs('READER');
    await expectApiError(
      reader.evaluations.create({ call_import_id: theirs.call_import_id, metric_ids: theirs.metric_ids }),
      PermissionDeniedError,
      403,
      'forbidden',
    );
  });
});
