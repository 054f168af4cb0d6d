import { type MetricClustersReport, MetricClustersReportSchema } from '@voice-eval/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectProblem } from '../../../test/access-rules.js';
import {
  CLUSTERS,
  type GenerateBody,
  generateReport,
  judgeReply,
  type Mode,
  makeMetrics,
  makeProvider,
  type SeededMetrics,
  scopeQuery,
  seedEvaluation,
  seededCalls,
} from '../../../test/factories/reports.js';
import { createHarness, type Harness, type Headers } from '../../../test/harness.js';
import { type JudgeDouble, startJudgeDouble } from '../../testing/judge.js';

let h: Harness;
let headers: Headers;
let judge: JudgeDouble;
let metrics: SeededMetrics;
let seed: Awaited<ReturnType<typeof seedEvaluation>>;
let judgeProviderId: string;
/** Evaluation row id -> the failure mode its call was seeded with. */
let modeOf: Map<string, Mode>;

beforeAll(async () => {
  let reply: ReturnType<typeof judgeReply> = () => undefined;
  judge = await startJudgeDouble({ override: (call) => reply(call) });
  h = await createHarness({ fetchAllowlist: ['127.0.0.1'] });
  headers = await h.as('OWNER');
  metrics = await makeMetrics(h, headers);
  judgeProviderId = await makeProvider(h, headers, judge.url, false);
  reply = judgeReply(metrics, seededCalls());
  seed = await seedEvaluation(h, headers, judgeProviderId, metrics);
  modeOf = new Map(seed.calls.map((c) => [seed.rowIds.get(c.conversation_id)!, c.mode]));
  // the reports below are made without a model until a test adds one
  const off = await h.request('PATCH', `/api/v1/aiproviders/${judgeProviderId}`, {
    headers,
    body: { is_active: false },
  });
  expect(off.status, JSON.stringify(off.body)).toBe(200);
});
afterAll(() => judge.close());

/** POSTs generate as a MEMBER and waits for the report. */
const generate = async (body: GenerateBody) => generateReport(h, await h.as('MEMBER'), body);

const rowsOf = (mode: Mode) => [...modeOf].filter(([, m]) => m === mode).map(([id]) => id);
const groupNamed = (report: MetricClustersReport, name: string) =>
  report.groups.find((g) => g.metric_name === name)!;
/** The modes of the rows a cluster's evidence shows. */
const evidenceModes = (cluster: { evidence: Array<{ evaluation_row_id: string }> }) =>
  new Set(cluster.evidence.map((e) => modeOf.get(e.evaluation_row_id)));

describe('metric clusters without a model', () => {
  let report: MetricClustersReport;
  beforeAll(async () => {
    report = await generate({ scope_key: 'deterministic' });
  });

  it('clusters each metric by failure mode, with labels, gap labels and evidence from the data', async () => {
    expect(report).toMatchObject({
      status: 'completed',
      provider: null,
      model: null,
      llm_calls_used: 0,
      error_message: null,
    });
    expect(report.progress).toEqual({ phase: 'done', completed_steps: 0, total_steps: 0 });
    expect(report.groups.map((g) => [g.metric_name, g.flagged_count])).toEqual([
      ['Booking confirmed', 13],
      ['Call quality', 4],
      ['Outcome', 4],
    ]);
    const confirmed = groupNamed(report, 'Booking confirmed');
    expect(confirmed.clusters.map((c) => [c.count, c.share_pct, c.gap_label, [...evidenceModes(c)]])).toEqual(
      [
        [8, 61.5, 'LOGIC_GAP', ['readback']],
        [5, 38.5, 'KNOWLEDGE_GAP', ['price']],
      ],
    );
    const [readback, price] = confirmed.clusters;
    expect(readback?.label.toLowerCase()).toMatch(/appointment/);
    expect(price?.label.toLowerCase()).toContain('price');
    expect(readback?.sub_clusters.map((s) => s.count)).toEqual([4, 4]);
    expect(readback?.sub_clusters.every((s) => s.share_pct === 30.8 && s.id.startsWith('sc_'))).toBe(true);
    expect(readback?.observation).toContain('8 of 13 flagged Booking confirmed results (61.5%)');
    expect(readback?.evidence).toHaveLength(3);
    const evidence = readback?.evidence[0];
    if (!evidence) throw new Error('the readback cluster has no evidence');
    expect(evidence.conversation_id).toMatch(/^call-readback-\d$/);
    expect(evidence.turns.length).toBeGreaterThan(0);
    expect(evidence.turns.map((t) => t.text)).toContain(evidence.quote);
    // where the quote is: the call's row, and the quoted turn of its transcript
    const row = await h.request(
      'GET',
      `/api/v1/call-imports/${seed.callImportId}/rows/${evidence.call_import_row_id}`,
      {
        headers,
      },
    );
    expect(row.body.conversation_id).toBe(evidence.conversation_id);
    const quoted = row.body.source_transcript.split('\n')[evidence.turn_index!];
    expect(quoted).toContain(evidence.quote);
    expect([evidence.start_ms, evidence.end_ms]).toEqual([null, null]);
    for (const name of ['Call quality', 'Outcome']) {
      const group = groupNamed(report, name);
      expect(group.clusters.map((c) => [c.count, c.gap_label, [...evidenceModes(c)]])).toEqual([
        [4, 'TOOL_GAP', ['tool']],
      ]);
    }
    expect(report.discovered_problems).toEqual([]);
    expect(report.groups.flatMap((g) => g.clusters).every((c) => c.level === 1 && !c.is_discovered)).toBe(
      true,
    );
  });

  it('summarises the same data: rca_summary, generation_scope and the selected rows', () => {
    const flaggedRows = [...rowsOf('readback'), ...rowsOf('price'), ...rowsOf('tool')];
    expect(new Set(report.selected_evaluation_row_ids)).toEqual(new Set(flaggedRows));
    expect(report.rca_summary).toMatchObject({
      total_clusters: 4,
      total_clustered_instances: 21,
      total_flagged_instances: 21,
      analysed_calls: 20,
    });
    expect(
      report.rca_summary.metric_hotspots.map((m) => [m.metric_name, m.metric_rate_pct, m.flagged_calls]),
    ).toEqual([
      ['Booking confirmed', 65, 13],
      ['Call quality', 20, 4],
      ['Outcome', 20, 4],
    ]);
    expect(report.rca_summary.metric_hotspots[0]?.description).toMatch(
      /^13 of 20 scored calls flagged; most often: /,
    );
    const pattern = report.rca_summary.repeated_patterns.find((p) => p.metric_name === 'Booking confirmed')!;
    expect(pattern).toMatchObject({ evidence_share_pct: 100, evidence_calls: 13, evidence_cluster_count: 2 });
    expect(pattern.top_rca_patterns).toEqual(
      groupNamed(report, 'Booking confirmed').clusters.map((c) => c.label),
    );
    expect(report.rca_summary.prompt_areas).toEqual(
      [
        { label: 'Tools and integrations', share_pct: 38.1, gap_label: 'TOOL_GAP' },
        { label: 'Conversation flow and steps', share_pct: 38.1, gap_label: 'LOGIC_GAP' },
        { label: 'Knowledge base and facts', share_pct: 23.8, gap_label: 'KNOWLEDGE_GAP' },
      ].sort((a, b) => b.share_pct - a.share_pct || a.label.localeCompare(b.label)),
    );
    expect(report.generation_scope).toMatchObject({ eligible_call_count: 20, selected_call_count: 17 });
    expect(report.overview).toMatch(
      /^21 flagged results across 3 metrics in 20 analysed calls, grouped into 4 clusters\./,
    );
    expect(report.generated_at_completed_rows).toBe(20);
    expect(report.is_stale).toBe(false);
  });

  it('keeps cluster ids when the scope is generated again', async () => {
    const again = await generate({ scope_key: 'deterministic' });
    expect(again.groups.flatMap((g) => g.clusters.map((c) => c.id))).toEqual(
      report.groups.flatMap((g) => g.clusters.map((c) => c.id)),
    );
    expect(Date.parse(again.generated_at!)).toBeGreaterThanOrEqual(Date.parse(report.generated_at!));
  });
});

describe('scopes', () => {
  it('reads one report per scope and filters by agent, scenarios, suite, job and time', async () => {
    const scoped = {
      agent_id: seed.agent.id,
      scenario_ids: [seed.scenario.id],
      suite_id: seed.suite.id,
      job_id: seed.evaluationId,
    };
    const idle = MetricClustersReportSchema.parse(
      (await h.request('GET', `${CLUSTERS}?${scopeQuery(scoped)}`, { headers })).body,
    );
    expect(idle.status).toBe('idle');
    expect(idle.generation_scope).toMatchObject({
      agent_id: seed.agent.id,
      agent_name: seed.agent.name,
      scenario_ids: [seed.scenario.id],
      scenario_names: [seed.scenario.name],
      eligible_call_count: 20,
    });
    const otherAgent = await h.request('POST', '/api/v1/agents', {
      headers,
      body: { name: 'Idle agent', call_type: 'inbound', call_medium: 'phone' },
    });
    const none = await h.request('GET', `${CLUSTERS}?agent_id=${otherAgent.body.id}`, { headers });
    expect(none.body.generation_scope.eligible_call_count).toBe(0);
    const future = await h.request('GET', `${CLUSTERS}?since=2999-01-01T00:00:00Z`, { headers });
    expect(future.body.generation_scope.eligible_call_count).toBe(0);
    const report = await generate({ ...scoped, scenario_id: seed.scenario.id, scope_key: 'scoped' });
    expect(report.rca_summary.total_flagged_instances).toBe(21);
    const empty = await generate({ agent_id: otherAgent.body.id });
    expect(empty).toMatchObject({ status: 'completed', groups: [], selected_evaluation_row_ids: [] });
    expect(empty.overview).toMatch(/^0 flagged results/);
  });

  it("keeps another organization's reports and rows apart", async () => {
    const other = await h.createTenant();
    const theirs = await h.request('GET', `${CLUSTERS}?scope_key=deterministic`, {
      headers: await other.as('OWNER'),
    });
    expect(theirs.body).toMatchObject({
      status: 'idle',
      groups: [],
      generation_scope: { eligible_call_count: 0 },
    });
    expectProblem(
      await h.request('GET', `${CLUSTERS}?job_id=${seed.evaluationId}`, { headers: await other.as('OWNER') }),
      404,
      'not_found',
    );
  });
});

describe('staleness', () => {
  it('is stale once the failure policies change, and fresh after generating again', async () => {
    const changed = await h.request('PUT', '/api/v1/evaluator-results/failure-policies', {
      headers,
      body: { policies: { [metrics.quality.id]: { numeric_rule: { operator: 'lte', value: 1 } } } },
    });
    expect(changed.status).toBe(200);
    const stale = await h.request('GET', `${CLUSTERS}?scope_key=deterministic`, { headers });
    expect(stale.body.is_stale).toBe(true);
    expect(stale.body.failure_policies_source).toBe('configured');
    const fresh = await generate({ scope_key: 'deterministic' });
    expect(fresh.is_stale).toBe(false);
    expect(fresh.groups.map((g) => g.metric_name)).toEqual(['Booking confirmed', 'Outcome']);
    await h.request('PUT', '/api/v1/evaluator-results/failure-policies', { headers, body: { policies: {} } });
    expect((await h.request('GET', `${CLUSTERS}?scope_key=deterministic`, { headers })).body.is_stale).toBe(
      true,
    );
  });
});
