import { type MetricClustersReport, MetricClustersReportSchema } from '@voice-eval/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ZodTypeAny } from 'zod';
import { z } from 'zod';
import {
  type GenerateBody,
  generateReport,
  judgeReply,
  type Mode,
  makeMetrics,
  makeProvider,
  type SeededMetrics,
  seedEvaluation,
  seededCalls,
} from '../../../test/factories/reports.js';
import { createHarness, type Harness, type Headers } from '../../../test/harness.js';
import { type JudgeDouble, startJudgeDouble } from '../../testing/judge.js';
import {
  chatReply,
  errorReply,
  type OpenAiDouble,
  startOpenAiDouble,
} from '../../testing/openai-compatible.js';

let h: Harness;
let headers: Headers;
let judge: JudgeDouble;
let llm: OpenAiDouble;
let metrics: SeededMetrics;
let seed: Awaited<ReturnType<typeof seedEvaluation>>;
let modeOf: Map<string, Mode>;

beforeAll(async () => {
  let reply: ReturnType<typeof judgeReply> = () => undefined;
  judge = await startJudgeDouble({ override: (call) => reply(call) });
  llm = await startOpenAiDouble();
  h = await createHarness({ fetchAllowlist: ['127.0.0.1'] });
  headers = await h.as('OWNER');
  metrics = await makeMetrics(h, headers);
  reply = judgeReply(metrics, seededCalls());
  const judgeId = await makeProvider(h, headers, judge.url, true);
  seed = await seedEvaluation(h, headers, judgeId, metrics);
  modeOf = new Map(seed.calls.map((c) => [seed.rowIds.get(c.conversation_id)!, c.mode]));
  await h.request('PATCH', `/api/v1/aiproviders/${judgeId}`, { headers, body: { is_active: false } });
  await makeProvider(h, headers, llm.url, true);
});
afterAll(() => Promise.all([judge.close(), llm.close()]));

const rowsOf = (mode: Mode) => [...modeOf].filter(([, m]) => m === mode).map(([id]) => id);

/** What the model double answers for one metric's clusters (ids of every row of each mode). */
const analysis = (overview: string, clusters: Array<[string, string, string, Mode[]]>) =>
  chatReply({
    overview,
    clusters: clusters.map(([label, gap_label, prompt_area, modes]) => ({
      label,
      gap_label,
      observation: `${label}: seen in ${modes.join(' and ')} calls.`,
      failure_reason: `Root cause of ${label.toLowerCase()}.`,
      prompt_area,
      member_ids: modes.flatMap(rowsOf),
    })),
  });

const confirmedReply = () =>
  analysis('Bookings end without a read-back, and prices come from an old list.', [
    ['Missed time read-back', 'INSTRUCTION_GAP', 'Booking confirmation step', ['readback']],
    ['Wrong price quoted', 'KNOWLEDGE_GAP', 'Price list', ['price']],
  ]);
const qualityReply = () =>
  analysis('Calls degrade when the calendar fails.', [
    ['Calendar outage', 'TOOL_GAP', 'Calendar integration', ['tool']],
  ]);

const generate = (body: GenerateBody) => generateReport(h, headers, body);

/** Every leaf path of a schema (`groups[].clusters[].label`, records as `*`). */
const leafPaths = (schema: ZodTypeAny, path: string): string[] => {
  if (schema instanceof z.ZodNullable || schema instanceof z.ZodOptional)
    return leafPaths(schema.unwrap(), path);
  if (schema instanceof z.ZodObject)
    return Object.entries(schema.shape as Record<string, ZodTypeAny>).flatMap(([k, s]) =>
      leafPaths(s, path ? `${path}.${k}` : k),
    );
  if (schema instanceof z.ZodArray) return leafPaths(schema.element, `${path}[]`);
  if (schema instanceof z.ZodRecord) return leafPaths(schema.valueSchema, `${path}.*`);
  return [path];
};

/** The leaf paths holding a value somewhere in the response: not null, not an empty string, not only in empty arrays. */
const filledPaths = (schema: ZodTypeAny, value: unknown, path: string, out: Set<string>): Set<string> => {
  if (value === null || value === undefined || value === '') return out;
  if (schema instanceof z.ZodNullable || schema instanceof z.ZodOptional)
    return filledPaths(schema.unwrap(), value, path, out);
  if (schema instanceof z.ZodObject) {
    for (const [k, s] of Object.entries(schema.shape as Record<string, ZodTypeAny>))
      filledPaths(s, (value as Record<string, unknown>)[k], path ? `${path}.${k}` : k, out);
  } else if (schema instanceof z.ZodArray) {
    for (const item of value as unknown[]) filledPaths(schema.element, item, `${path}[]`, out);
  } else if (schema instanceof z.ZodRecord) {
    for (const item of Object.values(value as object))
      filledPaths(schema.valueSchema, item, `${path}.*`, out);
  } else out.add(path);
  return out;
};

describe('metric clusters named by a model', () => {
  let report: MetricClustersReport;
  let before: number;
  beforeAll(async () => {
    const policy = await h.request('PUT', '/api/v1/evaluator-results/failure-policies', {
      headers,
      body: { policies: { [metrics.confirmed.id]: { failure_values: ['false'] } } },
    });
    expect(policy.status).toBe(200);
    before = llm.requests.length;
    // Booking confirmed, Call quality, Outcome (its call fails), then problem discovery
    llm.enqueue(
      '/v1/chat/completions',
      confirmedReply(),
      qualityReply(),
      errorReply(401, 'Incorrect API key provided'),
      analysis('Calendar failures also leave callers without a booking.', [
        ['Caller left without a booking', 'LOGIC_GAP', 'Call closing', ['tool']],
      ]),
    );
    report = await generate({
      agent_id: seed.agent.id,
      scenario_ids: [seed.scenario.id],
      suite_id: seed.suite.id,
      job_id: seed.evaluationId,
      since: new Date(Date.now() - 3_600_000).toISOString(),
      until: new Date(Date.now() + 3_600_000).toISOString(),
      scope_key: 'model',
    });
  });

  it('names clusters, maps gap labels and writes overviews within the budget', () => {
    expect(report).toMatchObject({
      status: 'completed',
      provider: 'openai',
      model: 'double-model',
      llm_calls_used: 4,
      max_llm_calls: 20,
    });
    expect(report.progress).toEqual({ phase: 'done', completed_steps: 4, total_steps: 4 });
    expect(report.error_message).toMatch(/^1 model call\(s\) failed \(provider_error\)/);
    const [confirmed, quality, outcome] = report.groups;
    expect(confirmed?.clusters.map((c) => [c.label, c.gap_label, c.count])).toEqual([
      ['Missed time read-back', 'PROMPT_GAP', 8],
      ['Wrong price quoted', 'KNOWLEDGE_GAP', 5],
    ]);
    expect(confirmed?.failure_reason).toBe(
      'Bookings end without a read-back, and prices come from an old list.',
    );
    expect(confirmed?.clusters[0]?.observation).toBe('Missed time read-back: seen in readback calls.');
    expect(quality?.clusters.map((c) => [c.label, c.gap_label])).toEqual([['Calendar outage', 'TOOL_GAP']]);
    // the failed call leaves Outcome with its deterministic naming
    expect(outcome?.clusters[0]?.label.toLowerCase()).toContain('calendar');
    expect(outcome?.clusters[0]?.observation).toMatch(/^4 of 4 flagged Outcome results/);
    expect(report.overview).toContain('Booking confirmed: Bookings end without a read-back');
    expect(report.rca_summary.prompt_areas.map((a) => a.label).sort()).toEqual(
      ['Booking confirmation step', 'Calendar integration', 'Price list', 'Tools and integrations'].sort(),
    );
  });

  it('proposes discovered problems promotable as metrics, and marks the clusters they explain', async () => {
    expect(report.discovered_problems).toHaveLength(1);
    const [problem] = report.discovered_problems;
    expect(problem).toMatchObject({
      id: 'caller_left_without_a_booking',
      label: 'Caller left without a booking',
      gap_label: 'LOGIC_GAP',
      count: 4,
      share_pct: 23.5,
    });
    expect(new Set(problem?.evidence.map((e) => modeOf.get(e.evaluation_row_id)))).toEqual(new Set(['tool']));
    const discovered = report.groups.flatMap((g) =>
      g.clusters.filter((c) => c.is_discovered).map(() => g.metric_name),
    );
    expect(discovered).toEqual(['Call quality', 'Outcome']);
    const promoted = await h.request('POST', '/api/v1/metrics/from-discovered', {
      headers,
      body: { key: problem?.id, name: problem?.label, metric_type: 'boolean' },
    });
    expect(promoted.status, JSON.stringify(promoted.body)).toBe(201);
    expect(promoted.body.name).toBe('Caller left without a booking');
  });

  it('sends the versioned cluster prompt with the flagged rationales', () => {
    const sent = llm.requests
      .slice(before)
      .map((r) => r.json as { model: string; response_format: any; messages: Array<{ content: string }> });
    expect(sent).toHaveLength(4);
    expect(
      sent.every(
        (s) => s.response_format.json_schema.name === 'cluster_analysis' && s.model === 'gpt-4o-mini',
      ),
    ).toBe(true);
    expect(sent[0]?.messages.at(-1)?.content).toContain('Metric: Booking confirmed');
    expect(sent[0]?.messages.at(-1)?.content).toContain('never read back the appointment time');
    expect(sent[3]?.messages.at(-1)?.content).toContain('Problems outside the existing metrics');
    expect(sent[3]?.messages.at(-1)?.content).toContain(
      'Call quality: The calendar lookup returned an error',
    );
  });

  it('fills every field of the contract from the seeded evaluation', () => {
    const expected = leafPaths(MetricClustersReportSchema, '');
    const filled = filledPaths(MetricClustersReportSchema, report, '', new Set());
    // this provider offers no embeddings model (metric-clusters-embeddings.http.test.ts fills these)
    const wordsOnly = ['clustering.provider', 'clustering.model'];
    // the seeded calls are CSV transcripts, without timing: a quote's place on the recording comes
    // from a diarised transcript (evidence.test.ts)
    const untimed = ['groups', 'discovered_problems'].flatMap((list) =>
      ['start_ms', 'end_ms'].map(
        (field) => `${list}[]${list === 'groups' ? '.clusters[]' : ''}.evidence[].${field}`,
      ),
    );
    expect(
      expected.filter((path) => !filled.has(path) && !wordsOnly.includes(path) && !untimed.includes(path)),
    ).toEqual([]);
    expect(expected.filter((path) => untimed.includes(path))).toHaveLength(4);
    expect(report.clustering).toEqual({ method: 'words', provider: null, model: null });
    expect(report.generation_scope).toMatchObject({
      agent_name: seed.agent.name,
      scenario_names: [seed.scenario.name],
      eligible_call_count: 20,
      selected_call_count: 17,
    });
    expect(report.failure_policies_source).toBe('configured');
    // the walk notices an empty list or a null field
    const hollow = {
      ...report,
      discovered_problems: [],
      generation_scope: { ...report.generation_scope, since: null },
    };
    const missing = expected.filter(
      (path) => !filledPaths(MetricClustersReportSchema, hollow, '', new Set()).has(path),
    );
    expect(missing).toContain('discovered_problems[].evidence[].turns[].speaker');
    expect(missing).toContain('generation_scope.since');
    expect(expected.length).toBeGreaterThan(80);
  });
});

describe('the call budget', () => {
  it('stops calling the model at max_llm_calls and keeps deterministic names for the rest', async () => {
    const before = llm.requests.length;
    llm.enqueue('/v1/chat/completions', confirmedReply(), qualityReply());
    const report = await generate({ scope_key: 'budget', max_llm_calls: 2 });
    expect(llm.requests.length - before).toBe(2);
    expect(report).toMatchObject({
      status: 'completed',
      llm_calls_used: 2,
      max_llm_calls: 2,
      error_message: null,
      discovered_problems: [],
    });
    expect(report.progress).toEqual({ phase: 'done', completed_steps: 2, total_steps: 2 });
    expect(report.groups[0]?.clusters[0]?.label).toBe('Missed time read-back');
    expect(report.groups[2]?.clusters[0]?.label).not.toBe('Calendar outage');
    expect(report.groups[2]?.clusters[0]?.gap_label).toBe('TOOL_GAP');
  });
});
