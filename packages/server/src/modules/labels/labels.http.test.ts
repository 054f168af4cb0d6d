import {
  HumanLabelExportRowSchema,
  HumanLabelSchema,
  LABEL_EXPORT_COLUMNS,
  MetricAgreementSchema,
  pageOf,
} from '@voice-eval/contract';
import { parse as parseCsv } from 'csv-parse/sync';
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
import { AGREEMENT_SEED } from './agreement.js';

/** The judge answers `judged` per metric id and call (the transcript's `row=` tag), else a default. */
let h: Harness;
let judge: JudgeDouble;
const judged = new Map<string, unknown>();
beforeAll(async () => {
  ({ h, judge } = await createJudgeHarness({
    answer: (metric, transcript) => {
      const call = /row=(\S+)/.exec(transcript)?.[1];
      const key = `${metric.key}:${call}`;
      return judged.has(key) ? judged.get(key) : defaultAnswer(metric);
    },
  }));
});
afterAll(() => judge.close());

let alice: Headers;
let bob: Headers;
beforeAll(async () => {
  alice = await h.as('MEMBER');
  bob = await h.as('ADMIN');
});

/** Calls `prefix-1..n` scored by the judge on `metric` (answers by call number). */
const scoredCalls = async (metricId: string, prefix: string, answers: readonly unknown[]) => {
  const calls = await makeImport(h, alice, callRows(answers.length, prefix));
  for (const [i, answer] of answers.entries()) judged.set(`${metricId}:${prefix}-${i + 1}`, answer);
  const evaluation = await startEvaluation(h, alice, { call_import_id: calls.id, metric_ids: [metricId] });
  expect((await settled(h, alice, evaluation.id)).status).toBe('completed');
  return (n: number) => calls.rowIds.get(`${prefix}-${n}`)!;
};

const label = (headers: Headers, metricId: string, rowId: string, body: Record<string, unknown>) =>
  h.request('PUT', `/api/v1/metrics/${metricId}/labels/${rowId}`, { headers, body });

const agreementOf = async (metricId: string, query = '') => {
  const reply = await h.request('GET', `/api/v1/metrics/${metricId}/agreement${query}`, { headers: alice });
  expect(reply.status, JSON.stringify(reply.body)).toBe(200);
  return MetricAgreementSchema.parse(reply.body);
};

describe('human labels', () => {
  it('keeps one label per person per call, typed like the metric, replaced when given again', async () => {
    const metric = await makeMetric(h, alice, { metric_type: 'boolean' });
    const row = await scoredCalls(metric.id, 'own', [true]);
    const first = await label(alice, metric.id, row(1), { value: false, note: 'Never confirmed the date.' });
    expect(first.status, JSON.stringify(first.body)).toBe(200);
    expect(HumanLabelSchema.parse(first.body)).toMatchObject({
      value: false,
      note: 'Never confirmed the date.',
      conversation_id: 'own-1',
      labelled_by: expect.stringContaining('@'),
    });
    // a boolean given as text is read as the judge's would be; the second label replaces the first
    const again = await label(alice, metric.id, row(1), { value: 'true' });
    expect(again.body).toMatchObject({ value: true, note: '', created_at: first.body.created_at });
    await label(bob, metric.id, row(1), { value: false });
    const list = pageOf(HumanLabelSchema).parse(
      (await h.request('GET', `/api/v1/metrics/${metric.id}/labels`, { headers: alice })).body,
    );
    expect(list.items.map((l) => [l.labelled_by === first.body.labelled_by, l.value])).toEqual([
      [false, false],
      [true, true],
    ]);
    const mine = await h.request(
      'GET',
      `/api/v1/metrics/${metric.id}/labels?labelled_by=${encodeURIComponent(first.body.labelled_by)}`,
      { headers: bob },
    );
    expect(mine.body.total).toBe(1);
    const withdrawn = await h.request('DELETE', `/api/v1/metrics/${metric.id}/labels/${row(1)}`, {
      headers: alice,
    });
    expect(withdrawn.status).toBe(204);
    expectProblem(
      await h.request('DELETE', `/api/v1/metrics/${metric.id}/labels/${row(1)}`, { headers: alice }),
      404,
      'not_found',
    );
    expect(
      (await h.request('GET', `/api/v1/metrics/${metric.id}/labels`, { headers: alice })).body.total,
    ).toBe(1);
  });

  it('refuses a value the metric cannot hold, a child metric, and calls it cannot see, storing nothing', async () => {
    const rating = await makeMetric(h, alice, { metric_type: 'rating', custom_config: { min: 1, max: 5 } });
    const category = await makeMetric(h, alice, { metric_type: 'category', selection_mode: 'single_choice' });
    const child = await makeMetric(h, alice, { name: 'Resolved', parent_metric_id: category.id });
    const row = await scoredCalls(rating.id, 'bad', [3]);
    for (const value of [7, 2.5, 'five', true]) {
      expectProblem(await label(alice, rating.id, row(1), { value }), 422, 'rule_violation');
    }
    expectProblem(await label(alice, category.id, row(1), { value: 'Escalated' }), 422, 'rule_violation');
    expect((await label(alice, category.id, row(1), { value: 'resolved' })).body.value).toBe('Resolved');
    expectProblem(await label(alice, child.id, row(1), { value: true }), 422, 'rule_violation');
    expectProblem(await label(alice, rating.id, crypto.randomUUID(), { value: 3 }), 404, 'not_found');
    const other = await h.createTenant();
    const theirs = await makeMetric(h, await other.as('MEMBER'), { metric_type: 'rating' });
    expectProblem(await label(await other.as('MEMBER'), theirs.id, row(1), { value: 3 }), 404, 'not_found');
    expectProblem(await label(await other.as('MEMBER'), rating.id, row(1), { value: 3 }), 404, 'not_found');
    expect(await h.db('human_labels').where({ metric_id: rating.id })).toHaveLength(0);
  });
});

describe('agreement', () => {
  it("measures the judge against people's majority on the version it scored with", async () => {
    const metric = await makeMetric(h, alice, { metric_type: 'boolean' });
    // the judge passes calls 1-8 and fails 9-12
    const row = await scoredCalls(metric.id, 'agree', [...Array(8).fill(true), ...Array(4).fill(false)]);
    const aliceSays = [true, true, true, true, true, true, false, false, false, false, false, true];
    for (const [i, value] of aliceSays.entries()) await label(alice, metric.id, row(i + 1), { value });
    // Bob labels the first four and disagrees with Alice on call 2: a tie, left out
    for (const [i, value] of [true, false, true, true].entries())
      await label(bob, metric.id, row(i + 1), { value });
    const result = await agreementOf(metric.id);
    expect(result).toMatchObject({
      metric_id: metric.id,
      version: 1,
      metric_type: 'boolean',
      n: 11,
      seed: AGREEMENT_SEED,
    });
    // people false/true against the judge false/true: [[3, 2], [1, 5]]
    expect(result.categorical?.confusion).toEqual({
      labels: ['false', 'true'],
      counts: [
        [3, 2],
        [1, 5],
      ],
    });
    expect(result.categorical?.accuracy?.estimate).toBeCloseTo(8 / 11, 10);
    // kappa = (88/121 - 62/121) / (1 - 62/121) = 26/59
    expect(result.categorical?.kappa?.estimate).toBeCloseTo(26 / 59, 10);
    expect(result.categorical?.kappa?.low).toBeLessThan(26 / 59);
    // a false is the failure: the judge flagged 4, 3 of them rightly, and missed 2 of the 5
    expect(result.flagged?.precision?.estimate).toBeCloseTo(3 / 4, 10);
    expect(result.flagged?.recall?.estimate).toBeCloseTo(3 / 5, 10);
    expect(result.ordinal).toBeNull();
    expect(result.inter_annotator).toEqual([
      {
        labellers: expect.any(Array),
        n: 4,
        kappa: { estimate: 0, low: expect.any(Number), high: expect.any(Number) },
      },
    ]);
    expect(result.disagreements.map((d) => [d.conversation_id, d.people, d.judge]).sort()).toEqual([
      ['agree-12', true, false],
      ['agree-7', false, true],
      ['agree-8', false, true],
    ]);
    expect(await agreementOf(metric.id)).toEqual(result);
    // a reworded metric is version 2: nothing was scored with it yet, and version 1 still reads
    await h.request('PATCH', `/api/v1/metrics/${metric.id}`, {
      headers: alice,
      body: { description: 'Reworded' },
    });
    expect(await agreementOf(metric.id)).toMatchObject({ version: 2, n: 0, disagreements: [] });
    expect((await agreementOf(metric.id, '?version=1')).n).toBe(11);
    expectProblem(
      await h.request('GET', `/api/v1/metrics/${metric.id}/agreement?version=3`, { headers: alice }),
      422,
      'rule_violation',
    );
  });

  it('measures ratings by mean absolute error, Spearman and the share within one step', async () => {
    const metric = await makeMetric(h, alice, { metric_type: 'rating', custom_config: { min: 1, max: 5 } });
    const row = await scoredCalls(metric.id, 'rate', [1, 2, 3, 5, 5]);
    for (const [i, value] of [1, 2, 3, 4, 5].entries()) await label(alice, metric.id, row(i + 1), { value });
    const result = await agreementOf(metric.id);
    expect(result).toMatchObject({ n: 5, categorical: null, inter_annotator: [] });
    expect(result.ordinal?.mae?.estimate).toBeCloseTo(0.2, 10);
    // ranks 1..5 against 1, 2, 3, 4.5, 4.5: 9.5 / sqrt(10 * 9.5)
    expect(result.ordinal?.spearman?.estimate).toBeCloseTo(9.5 / Math.sqrt(95), 10);
    expect(result.ordinal?.within_one?.estimate).toBe(1);
    expect(result.disagreements).toEqual([
      expect.objectContaining({ conversation_id: 'rate-4', people: 4, judge: 5 }),
    ]);
  });
});

describe('label export', () => {
  const exported = (metricId: string, query: string, headers: Headers = alice) =>
    h.request('GET', `/api/v1/metrics/${metricId}/labels/export${query}`, { headers });
  const listed = async (metricId: string, query = '') =>
    pageOf(HumanLabelSchema).parse(
      (
        await h.request('GET', `/api/v1/metrics/${metricId}/labels?page_size=100${query}`, {
          headers: alice,
        })
      ).body,
    ).items;
  /**
   * A field as the CSV writes it: null empty, a boolean or number as it reads, several labels
   * joined with `|`, and text a spreadsheet would run (=, +, -, @, tab, CR first) after a quote.
   */
  const cell = (value: unknown) => {
    if (value === null) return '';
    if (typeof value === 'boolean' || typeof value === 'number') return String(value);
    const text = Array.isArray(value) ? value.join('|') : String(value);
    return /^[=+\-@\t\r]/.test(text) ? `'${text}` : text;
  };

  it("exports the list's labels whole as CSV and JSON, with each call's import and the judge's value", async () => {
    const name = `Refund handled: étape ${crypto.randomUUID().slice(0, 6)}`;
    const metric = await makeMetric(h, alice, { metric_type: 'boolean', name });
    const row = await scoredCalls(metric.id, 'export', [true, false, true]);
    const unscored = await makeImport(h, alice, callRows(1, 'unscored'));
    const notes = [
      'Refunded, then said "goodbye"\nand hung up.',
      '=HYPERLINK("http://evil.test","click")',
      '@SUM(A1)',
    ];
    for (const [i, note] of notes.entries())
      await label(alice, metric.id, row(i + 1), { value: i !== 1, note });
    await label(bob, metric.id, row(2), { value: true, note: '-2+3' });
    await label(bob, metric.id, unscored.rowIds.get('unscored-1')!, { value: false });
    const list = await listed(metric.id);
    expect(list).toHaveLength(5);

    // JSON: the list, whole, with the metric, the call's import and the judge's value
    const json = await exported(metric.id, '?format=json');
    expect(json.status, JSON.stringify(json.body)).toBe(200);
    expect(json.headers.get('content-type')).toMatch(/^application\/json/);
    const rows = HumanLabelExportRowSchema.array().parse(json.body);
    const judge = new Map([
      [row(1), true],
      [row(2), false],
      [row(3), true],
    ]);
    const importOf = new Map<string, string>(
      (
        await h.db('call_import_rows').whereIn('id', [...judge.keys(), unscored.rowIds.get('unscored-1')!])
      ).map((r: { id: string; call_import_id: string }) => [r.id, r.call_import_id]),
    );
    expect(rows).toEqual(
      list.map((l) => ({
        ...l,
        metric_name: name,
        call_import_id: importOf.get(l.call_import_row_id),
        judge_value: judge.get(l.call_import_row_id) ?? null,
        judge_version: judge.has(l.call_import_row_id) ? 1 : null,
      })),
    );

    // CSV: a header row, then the same rows, read back by a CSV parser as they were written
    const csv = await exported(metric.id, '');
    expect(csv.status).toBe(200);
    expect(csv.headers.get('content-type')).toMatch(/^text\/csv; charset=utf-8/);
    expect(csv.headers.get('content-disposition')).toMatch(
      /^attachment; filename="labels-refund-handled-etape-[a-z0-9]{1,6}\.csv"$/,
    );
    expect(csv.body as string).toMatch(/\r\n$/);
    const [header, ...records] = parseCsv(csv.body as string, { relax_column_count: false }) as string[][];
    expect(header).toEqual([...LABEL_EXPORT_COLUMNS]);
    expect(records).toEqual(rows.map((r) => LABEL_EXPORT_COLUMNS.map((column) => cell(r[column]))));
    expect(records.map((r) => r[LABEL_EXPORT_COLUMNS.indexOf('note')])).toEqual(
      expect.arrayContaining([notes[0], `'=HYPERLINK("http://evil.test","click")`, "'@SUM(A1)", "'-2+3", '']),
    );

    // the list's filters; a reader may export
    const reader = await h.as('READER');
    const bobs = await exported(
      metric.id,
      `?format=json&labelled_by=${encodeURIComponent(list.find((l) => l.note === '-2+3')!.labelled_by)}`,
      reader,
    );
    expect(bobs.status).toBe(200);
    expect((bobs.body as Array<{ note: string }>).map((r) => r.note).sort()).toEqual(['', '-2+3']);
    const second = await exported(metric.id, `?format=json&call_import_row_id=${row(2)}`, reader);
    expect((second.body as Array<{ judge_value: unknown }>).map((r) => r.judge_value)).toEqual([
      false,
      false,
    ]);
    const none = await exported(metric.id, `?call_import_row_id=${crypto.randomUUID()}`);
    expect(none.body).toBe(`${LABEL_EXPORT_COLUMNS.join(',')}\r\n`);
  });

  it('writes several labels joined with `|` and numbers as they are', async () => {
    const category = await makeMetric(h, alice, { metric_type: 'category', selection_mode: 'multi_label' });
    const [refund, rebooked] = [`Refund ${category.id.slice(0, 6)}`, `Rebooked ${category.id.slice(0, 6)}`];
    for (const child of [refund, rebooked])
      await makeMetric(h, alice, { name: child, parent_metric_id: category.id });
    const number = await makeMetric(h, alice, { metric_type: 'number' });
    const calls = await makeImport(h, alice, callRows(1, 'multi'));
    const call = calls.rowIds.get('multi-1')!;
    const both = await label(alice, category.id, call, { value: [rebooked, refund] });
    expect(both.status, JSON.stringify(both.body)).toBe(200);
    expect((await label(alice, number.id, call, { value: -1.5 })).status).toBe(200);
    const valueAt = LABEL_EXPORT_COLUMNS.indexOf('value');
    const [, multi] = parseCsv((await exported(category.id, '?format=csv')).body as string) as string[][];
    expect(multi?.[valueAt]).toBe((both.body.value as string[]).join('|'));
    expect(multi?.[valueAt]?.split('|').sort()).toEqual([rebooked, refund]);
    const [, numbered] = parseCsv((await exported(number.id, '')).body as string) as string[][];
    expect(numbered?.[valueAt]).toBe('-1.5');
  });

  it("is 404 for an unknown or another organization's metric, 422 for a child metric or a bad format", async () => {
    const category = await makeMetric(h, alice, { metric_type: 'category', selection_mode: 'single_choice' });
    const child = await makeMetric(h, alice, { name: 'Resolved', parent_metric_id: category.id });
    expectProblem(await exported(crypto.randomUUID(), ''), 404, 'not_found');
    const other = await h.createTenant();
    const theirs = await makeMetric(h, await other.as('MEMBER'), { metric_type: 'boolean' });
    expectProblem(await exported(theirs.id, ''), 404, 'not_found');
    expectProblem(await exported(child.id, ''), 422, 'rule_violation');
    expectProblem(await exported(category.id, '?format=xml'), 422, 'validation_failed');
    expectProblem(await exported(category.id, '?labelled_by='.padEnd(400, 'x')), 422, 'validation_failed');
  });
});
