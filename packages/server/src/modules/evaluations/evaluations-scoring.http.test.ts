import { EvaluationRowSchema } from '@voice-eval/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectProblem } from '../../../test/access-rules.js';
import {
  callRows,
  makeImport,
  makeMetric,
  settled,
  startEvaluation,
} from '../../../test/factories/evaluations.js';
import type { Harness, Headers } from '../../../test/harness.js';
import { createJudgeHarness } from '../../../test/judge-harness.js';
import { defaultAnswer, type JudgeDouble } from '../../testing/judge.js';

/** Workers on; the judge answers `answers` per metric id (else a valid default) and fails on demand. */
let h: Harness;
let judge: JudgeDouble;
const answers = new Map<string, unknown>();
const failing = new Set<string>();
beforeAll(async () => {
  ({ h, judge } = await createJudgeHarness({
    answer: (metric) => (answers.has(metric.key) ? answers.get(metric.key) : defaultAnswer(metric)),
    override: (call) =>
      call.tag && failing.has(call.tag)
        ? { status: 400, body: { error: { message: 'bad request' } } }
        : undefined,
  }));
});
afterAll(() => judge.close());

let headers: Headers;
beforeAll(async () => {
  headers = await h.as('MEMBER');
});

const rowsOf = async (id: string, query = '') =>
  (await h.request('GET', `/api/v1/evaluations/${id}/rows?page_size=100${query}`, { headers })).body;

/** One metric of each type; category parents with children. */
const makeMetrics = async () => {
  const boolean = await makeMetric(h, headers, { metric_type: 'boolean', capture_rationale: true });
  const rating = await makeMetric(h, headers, { metric_type: 'rating', custom_config: { min: 1, max: 5 } });
  const number = await makeMetric(h, headers, { metric_type: 'number', custom_config: { min: 0, max: 100 } });
  const single = await makeMetric(h, headers, { metric_type: 'category', selection_mode: 'single_choice' });
  const multi = await makeMetric(h, headers, { metric_type: 'category', selection_mode: 'multi_label' });
  for (const [parent, names] of [
    [single, ['Resolved', 'Not resolved']],
    [multi, ['Billing', 'Refund']],
  ] as const) {
    for (const name of names) await makeMetric(h, headers, { name, parent_metric_id: parent.id });
  }
  return { boolean, rating, number, single, multi };
};

describe('scoring rows with the LLM judge', () => {
  it('records one typed result per metric, flags failures, keeps rationales only when asked, and completes', async () => {
    const m = await makeMetrics();
    answers.set(m.boolean.id, false).set(m.rating.id, '2').set(m.number.id, 75);
    answers.set(m.single.id, 'not RESOLVED').set(m.multi.id, ['refund', 'Billing', 'Refund']);
    const imported = await makeImport(h, headers, callRows(3, 'typed'));
    const ids = [m.boolean.id, m.rating.id, m.number.id, m.single.id, m.multi.id];
    const evaluation = await startEvaluation(h, headers, { call_import_id: imported.id, metric_ids: ids });
    const done = await settled(h, headers, evaluation.id);
    expect(done).toMatchObject({ status: 'completed', completed_rows: 3, pending_rows: 0, running_rows: 0 });
    expect(done.started_at).not.toBeNull();
    expect(done.completed_at).not.toBeNull();
    const rows = await rowsOf(evaluation.id);
    const row = EvaluationRowSchema.parse(rows.items[0]);
    expect(row).toMatchObject({ status: 'completed', attempts: 1, error: null });
    expect(row.results.map((r) => [r.metric_id, r.value, r.flagged])).toEqual([
      [m.boolean.id, false, true],
      [m.rating.id, 2, true],
      [m.number.id, 75, false],
      [m.single.id, 'Not resolved', true],
      [m.multi.id, ['Refund', 'Billing'], false],
    ]);
    expect(row.results[0]!.rationale).toBe(`judged ${m.boolean.id}`);
    expect(row.results.slice(1).every((r) => r.rationale === null)).toBe(true);
    expect((await rowsOf(evaluation.id, '&flagged=true')).total).toBe(3);
    expect((await rowsOf(evaluation.id, '&flagged=false')).total).toBe(0);
    // every call reached the judge with the transcript and the model
    const calls = judge.calls.filter((c) => c.tag?.startsWith('typed-'));
    expect(calls.map((c) => c.tag).sort()).toEqual(['typed-1', 'typed-2', 'typed-3']);
    const callImport = await h.request('GET', `/api/v1/call-imports/${imported.id}`, { headers });
    expect(callImport.body.latest_evaluation_status).toBe('completed');
  });

  it('fails a row with nothing to score, or a reply of the wrong type, and completes the rest', async () => {
    const metric = await makeMetric(h, headers, { metric_type: 'rating', custom_config: { min: 1, max: 5 } });
    const other = await makeMetric(h, headers, { metric_type: 'boolean' });
    const imported = await makeImport(h, headers, [
      ...callRows(2, 'mixed'),
      { conversation_id: 'empty', transcript: null },
    ]);
    const evaluation = await startEvaluation(h, headers, {
      call_import_id: imported.id,
      metric_ids: [metric.id],
      row_ids: [...imported.rowIds.values()],
    });
    expect((await settled(h, headers, evaluation.id)).status).toBe('completed');
    const failed = await rowsOf(evaluation.id, '&status=failed');
    expect(failed.items.map((r: any) => [r.conversation_id, r.error.code])).toEqual([
      ['empty', 'transcript_unavailable'],
    ]);

    answers.set(other.id, 'maybe');
    const wrong = await startEvaluation(h, headers, { call_import_id: imported.id, metric_ids: [other.id] });
    const closed = await settled(h, headers, wrong.id);
    expect(closed).toMatchObject({ status: 'failed', failed_rows: 2, completed_rows: 0 });
    expect(closed.error_message).toMatch(/every row failed/);
    const errors = (await rowsOf(wrong.id)).items.map((r: any) => r.error);
    expect(errors.every((e: any) => e.code === 'invalid_provider_response' && e.provider === 'default')).toBe(
      true,
    );
  });

  it('records provider errors on the row as typed errors', async () => {
    const metric = await makeMetric(h, headers, { metric_type: 'boolean' });
    const imported = await makeImport(h, headers, callRows(2, 'broken'));
    failing.add('broken-1');
    const evaluation = await startEvaluation(h, headers, {
      call_import_id: imported.id,
      metric_ids: [metric.id],
    });
    expect(await settled(h, headers, evaluation.id)).toMatchObject({
      status: 'completed',
      failed_rows: 1,
      completed_rows: 1,
    });
    const [row] = (await rowsOf(evaluation.id, '&status=failed')).items;
    expect(row).toMatchObject({
      conversation_id: 'broken-1',
      error: { code: 'provider_error', provider: 'default' },
    });
  });
});

describe('cancelling while rows are scored', () => {
  it('stops dispatch of the remaining rows and fences the rows being scored', async () => {
    const metric = await makeMetric(h, headers, { metric_type: 'boolean' });
    const imported = await makeImport(h, headers, callRows(12, 'slow'));
    judge.setLatency(600);
    try {
      const evaluation = await startEvaluation(h, headers, {
        call_import_id: imported.id,
        metric_ids: [metric.id],
      });
      await expect
        .poll(() => judge.calls.filter((c) => c.tag?.startsWith('slow-')).length)
        .toBeGreaterThan(0);
      const cancelled = await h.request('POST', `/api/v1/evaluations/${evaluation.id}/cancel`, {
        headers,
        body: {},
      });
      expect(cancelled.body.status).toBe('cancelled');
      // no row is dispatched after the cancel; the judge hears of none after a short grace
      const { last } = (
        (await h
          .db('evaluation_dispatches')
          .where('evaluation_id', evaluation.id)
          .max({ last: 'dispatched_at' })) as Array<{ last: Date }>
      )[0]!;
      expect(new Date(last).getTime()).toBeLessThanOrEqual(new Date(cancelled.body.completed_at).getTime());
      await new Promise((resolve) => setTimeout(resolve, 100));
      const callsAtCancel = judge.calls.filter((c) => c.tag?.startsWith('slow-')).length;
      expect(callsAtCancel).toBeLessThan(12);
      await new Promise((resolve) => setTimeout(resolve, 1500));
      expect(judge.calls.filter((c) => c.tag?.startsWith('slow-')).length).toBe(callsAtCancel);
      const after = (await h.request('GET', `/api/v1/evaluations/${evaluation.id}`, { headers })).body;
      expect(after).toMatchObject({
        status: 'cancelled',
        cancelled_rows: 12,
        completed_rows: 0,
        running_rows: 0,
      });
      const again = await h.request('POST', `/api/v1/evaluations/${evaluation.id}/cancel`, {
        headers,
        body: {},
      });
      expect(again.status).toBe(200);
    } finally {
      judge.setLatency(0);
    }
  });

  it('is a 409 for a finished evaluation', async () => {
    const metric = await makeMetric(h, headers, { metric_type: 'boolean' });
    const imported = await makeImport(h, headers, callRows(1, 'finished'));
    const evaluation = await startEvaluation(h, headers, {
      call_import_id: imported.id,
      metric_ids: [metric.id],
    });
    expect((await settled(h, headers, evaluation.id)).status).toBe('completed');
    expectProblem(
      await h.request('POST', `/api/v1/evaluations/${evaluation.id}/cancel`, { headers, body: {} }),
      409,
      'conflict',
    );
  });
});
