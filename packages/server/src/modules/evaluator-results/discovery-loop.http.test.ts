import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeImport, makeMetric, settled, startEvaluation } from '../../../test/factories/evaluations.js';
import { CLUSTERS, generateReport, makeProvider, scopeQuery } from '../../../test/factories/reports.js';
import { createHarness, type Harness, type Headers } from '../../../test/harness.js';
import { type JudgeDouble, startJudgeDouble } from '../../testing/judge.js';

/**
 * Discovery closes the loop (issue 17): a metric with `allow_discovery` makes the judge report
 * problems outside the metrics; they are stored with the rows, listed in the report's
 * `discovered_problems` under their key, and once the key is promoted with
 * `POST /metrics/from-discovered` the rows already scored under it resolve to the new metric.
 */

let h: Harness;
let headers: Headers;
let judge: JudgeDouble;
let providerId: string;
let greets: { id: string; name: string };
let plain: { id: string; name: string };
let importId: string;

const REFUND = 'Sorry, refunds are never possible.';
const calls = [
  ...[1, 2, 3, 4].map((n) => ({
    conversation_id: `refund-${n}`,
    transcript: `Caller: Hello, can I get a refund for my order?\nAgent: ${REFUND}\nCaller: Oh. row=refund-${n}`,
  })),
  ...[1, 2].map((n) => ({
    conversation_id: `fine-${n}`,
    transcript: `Caller: Hello, I want to book a table.\nAgent: Booked for 7pm.\nCaller: Thanks. row=fine-${n}`,
  })),
];

type Row = { id: string; conversation_id: string; discovered: Array<Record<string, unknown>> };

/** Rows of an evaluation by conversation id. */
const rowsOf = async (evaluationId: string) => {
  const rows = await h.request('GET', `/api/v1/evaluations/${evaluationId}/rows?page_size=100`, { headers });
  expect(rows.status).toBe(200);
  return new Map<string, Row>((rows.body.items as Row[]).map((r) => [r.conversation_id, r]));
};

/** What the rows of the refund calls store, resolved to `metricId`. */
const refundDiscovery = (metricId: string | null) => ({
  key: 'misstates_refund_policy',
  metric_type: 'boolean',
  observation: 'The agent told the caller refunds are never possible, contradicting the refund policy.',
  evidence: REFUND,
  metric_id: metricId,
});

beforeAll(async () => {
  judge = await startJudgeDouble({
    // the judge names the same problem with different punctuation and case: one key
    discover: (transcript) =>
      transcript.includes('refund')
        ? [
            {
              key: 'refund policy',
              name: transcript.includes('row=refund-1')
                ? 'misstates refund policy!'
                : 'Misstates refund policy',
              metric_type: 'boolean',
              observation:
                'The agent told the caller refunds are never possible, contradicting the refund policy.',
              evidence: REFUND,
            },
          ]
        : [],
  });
  h = await createHarness({ fetchAllowlist: ['127.0.0.1'] });
  headers = await h.as('OWNER');
  providerId = await makeProvider(h, headers, judge.url, true);
  greets = await makeMetric(h, headers, {
    name: 'Greets the caller',
    metric_type: 'boolean',
    capture_rationale: true,
    allow_discovery: true,
  });
  plain = await makeMetric(h, headers, { name: 'Polite', metric_type: 'boolean' });
  importId = (await makeImport(h, headers, calls)).id;
});
afterAll(() => judge.close());

describe('discovery closes the loop', () => {
  it('stores what the judge discovers, lists it under its key, and resolves it after promotion', async () => {
    const evaluation = await startEvaluation(h, headers, {
      call_import_id: importId,
      metric_ids: [greets.id],
      ai_provider_id: providerId,
    });
    expect((await settled(h, headers, evaluation.id)).status).toBe('completed');
    expect(judge.calls.length).toBe(calls.length);
    expect(judge.calls.every((call) => call.discovery === true)).toBe(true);
    const rows = await rowsOf(evaluation.id);
    const refundRows = calls
      .filter((c) => c.conversation_id.startsWith('refund'))
      .map((c) => rows.get(c.conversation_id)!.id);
    // stored with the rows, keyed by the slug of the name (not the judge's own key)
    for (const [conversation, row] of rows) {
      if (conversation.startsWith('fine')) expect(row.discovered).toEqual([]);
      else expect(row.discovered).toEqual([expect.objectContaining(refundDiscovery(null))]);
    }

    // the report runs without a model: only what the judge stored can be discovered
    await h.request('PATCH', `/api/v1/aiproviders/${providerId}`, { headers, body: { is_active: false } });
    const scope = { job_id: evaluation.id };
    const before = await generateReport(h, headers, scope);
    expect(before.status).toBe('completed');
    expect(before.discovered_problems).toHaveLength(1);
    const problem = before.discovered_problems[0]!;
    expect(problem).toMatchObject({
      id: 'misstates_refund_policy',
      key: 'misstates_refund_policy',
      label: 'Misstates refund policy',
      count: 4,
    });
    expect(problem.evidence.length).toBeGreaterThan(0);
    for (const item of problem.evidence) {
      expect(refundRows).toContain(item.evaluation_row_id);
      expect(item.quote).toContain('refunds are never possible');
    }
    expect(before.selected_evaluation_row_ids.sort()).toEqual([...refundRows].sort());
    expect(before.groups).toEqual([]);

    // promote the key: the new metric's slug equals it
    const promoted = await h.request('POST', '/api/v1/metrics/from-discovered', {
      headers,
      body: { key: problem.key, name: problem.label, metric_type: 'boolean' },
    });
    expect(promoted.status, JSON.stringify(promoted.body)).toBe(201);
    expect(promoted.body).toMatchObject({ name: 'Misstates refund policy', metric_origin: 'discovered' });

    const stale = await h.request('GET', `${CLUSTERS}?${scopeQuery(scope)}`, { headers });
    expect(stale.body.is_stale).toBe(true);

    // the rows scored before the metric existed resolve to it: on the rows and in the report
    for (const [conversation, row] of await rowsOf(evaluation.id)) {
      if (conversation.startsWith('refund'))
        expect(row.discovered).toEqual([expect.objectContaining(refundDiscovery(promoted.body.id))]);
    }
    const after = await generateReport(h, headers, scope);
    expect(after.status).toBe('completed');
    expect(after.discovered_problems).toEqual([]);
    expect(after.groups).toHaveLength(1);
    const group = after.groups[0]!;
    expect(group).toMatchObject({
      metric_id: promoted.body.id,
      metric_name: 'Misstates refund policy',
      flagged_count: 4,
    });
    expect(group.clusters.length).toBeGreaterThan(0);
    expect(group.clusters.every((cluster) => cluster.is_discovered)).toBe(true);
    const members = group.clusters.flatMap((cluster) => cluster.evidence.map((e) => e.evaluation_row_id));
    for (const id of members) expect(refundRows).toContain(id);
    expect(after.selected_evaluation_row_ids.sort()).toEqual([...refundRows].sort());
  });

  it('does not ask the judge for discoveries when no metric of the evaluation allows them', async () => {
    await h.request('PATCH', `/api/v1/aiproviders/${providerId}`, { headers, body: { is_active: true } });
    const seen = judge.calls.length;
    const evaluation = await startEvaluation(h, headers, {
      call_import_id: importId,
      metric_ids: [plain.id],
      ai_provider_id: providerId,
    });
    expect((await settled(h, headers, evaluation.id)).status).toBe('completed');
    const mine = judge.calls.slice(seen);
    expect(mine.length).toBe(calls.length);
    expect(mine.every((call) => call.discovery === false)).toBe(true);
    await h.request('PATCH', `/api/v1/aiproviders/${providerId}`, { headers, body: { is_active: false } });
    const report = await generateReport(h, headers, { job_id: evaluation.id });
    expect(report.discovered_problems).toEqual([]);
  });
});
