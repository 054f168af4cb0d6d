import type { Agent, EvaluatorSuite, MetricClustersReport, RequestBody, Scenario } from '@voice-eval/sdk';
import { expect } from 'vitest';
import type { JudgeCall } from '../../src/testing/judge.js';
import { clientWith, type Harness, type Headers } from '../harness.js';
import { makeImport, makeMetric, startEvaluation } from './evaluations.js';

/**
 * Test fixtures for metric-cluster reports: an evaluation seeded through the SDK (metrics, a
 * suite's evaluator, a CSV import with transcripts, an evaluation judged by the judge double),
 * with three failure modes whose rationales vary in wording, and calls that pass.
 */

const suffix = () => Math.random().toString(36).slice(2, 8);

/**
 * Reads until `done` holds, every 50 ms, at most `attempts` times (usable in hooks, unlike
 * `expect.poll`); throws with the last value otherwise.
 */
export const waitFor = async <T>(
  read: () => Promise<T>,
  done: (value: T) => boolean,
  attempts = 400,
): Promise<T> => {
  let value = await read();
  for (let i = 1; i < attempts && !done(value); i++) {
    await new Promise((resolve) => setTimeout(resolve, 50));
    value = await read();
  }
  if (!done(value)) throw new Error(`condition not reached: ${JSON.stringify(value).slice(0, 500)}`);
  return value;
};

export const CLUSTERS = '/api/v1/evaluator-results/metric-clusters';

/** A report scope as a query string (array values repeat their key). */
export const scopeQuery = (scope: Record<string, unknown>) => {
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(scope))
    for (const v of [value].flat()) search.append(key, String(v));
  return search.toString();
};

/** What generating a report takes: its scope and, optionally, an LLM budget (`max_llm_calls`). */
export type GenerateBody = RequestBody<'evaluatorResults', 'generateMetricClusters'>;

/** Starts generating (202, `running`), then polls the scope's report until its run ends. */
export const generateReport = async (
  h: Harness,
  headers: Headers,
  body: GenerateBody,
): Promise<MetricClustersReport> => {
  const client = clientWith(h.url, headers);
  const started = await client.evaluatorResults.generateMetricClusters(body);
  expect(started.status).toBe('running');
  const { max_llm_calls: _budget, ...scope } = body;
  return waitFor(
    () => client.evaluatorResults.metricClusters(scope),
    (report) => report.status === 'completed' || report.status === 'failed',
  );
};

/** Failure modes of the seeded calls: the judge's rationales, and what the agent said. */
export const MODES = {
  readback: {
    // two variants (time not read back, date not confirmed): the cluster's sub-clusters
    rationales: [
      'The agent booked the appointment but never read back the appointment time.',
      'Appointment time was never read back to the caller before hanging up.',
      'The agent did not read back the appointment time at the end of the booking.',
      'No read-back of the appointment time after booking.',
      'The agent forgot to confirm the appointment date with the caller.',
      'Appointment date was not confirmed; the caller was unsure which day.',
      'The agent never confirmed the date of the appointment.',
      'Did not confirm the appointment date before ending the call.',
    ],
    agent: 'You are booked in. Anything else?',
  },
  price: {
    rationales: [
      'Quoted an incorrect price for teeth whitening.',
      'The price given for the cleaning was wrong and outdated.',
      'Told the caller a wrong price for an x-ray, not the listed price.',
      'Incorrect price stated for the check-up compared with the price list.',
      'Gave an outdated price for whitening.',
    ],
    agent: 'A cleaning costs 300 dollars, the price is fixed.',
  },
  tool: {
    rationales: [
      'The calendar lookup returned an error and the booking stopped.',
      'Calendar integration error; the agent could not recover the booking.',
      'The scheduling calendar failed with an error mid-call and the booking was lost.',
      'The booking calendar lookup failed with an error.',
    ],
    agent: 'Sorry, the calendar system shows an error right now.',
  },
  ok: {
    rationales: ['The agent handled the call well.', 'Clear and correct booking.', 'Booked and confirmed.'],
    agent: 'Booked for Tuesday at 3pm, see you then.',
  },
} as const;

export type Mode = keyof typeof MODES;

/** One seeded call per rationale: conversation `call-<mode>-<n>`, transcript tagged for the judge double. */
export const seededCalls = () =>
  (Object.keys(MODES) as Mode[]).flatMap((mode) =>
    MODES[mode].rationales.map((rationale, i) => {
      const id = `call-${mode}-${i + 1}`;
      const transcript = `Caller: Hi, I would like to book a cleaning.\nAgent: ${MODES[mode].agent}\nCaller: Thanks. row=${id}`;
      return { conversation_id: id, mode, rationale, transcript };
    }),
  );

/**
 * The judge's reply for a call (the double reads the conversation id from `row=`): "Booking
 * confirmed" (boolean) fails for readback and price calls, "Call quality" (rating) is 2 for tool
 * calls, "Outcome" (category) is Escalated for tool calls; rationales come from the call's mode.
 */
export const judgeReply =
  (metrics: SeededMetrics, calls: ReturnType<typeof seededCalls>) => (call: JudgeCall) => {
    const seeded = calls.find((c) => c.conversation_id === call.tag);
    if (!seeded) return undefined;
    const bad = seeded.mode !== 'ok';
    const scores = [
      {
        key: metrics.confirmed.id,
        value: !(seeded.mode === 'readback' || seeded.mode === 'price'),
        rationale: seeded.rationale,
        evidence: [],
      },
      {
        key: metrics.quality.id,
        value: seeded.mode === 'tool' ? 2 : 5,
        rationale: seeded.rationale,
        evidence: [],
      },
      {
        key: metrics.outcome.id,
        value: seeded.mode === 'tool' ? 'Escalated' : 'Resolved',
        rationale: bad ? seeded.rationale : 'Resolved.',
        evidence: [],
      },
    ];
    const content = JSON.stringify({ scores, discovered: [] });
    return {
      status: 200,
      body: {
        id: 'chatcmpl-judge',
        object: 'chat.completion',
        model: 'judge-double',
        choices: [{ index: 0, finish_reason: 'stop', message: { role: 'assistant', content } }],
        usage: { prompt_tokens: 100, completion_tokens: 20, total_tokens: 120 },
      },
    };
  };

export type SeededMetrics = Awaited<ReturnType<typeof makeMetrics>>;

/** The three metrics the seeded evaluation scores, each capturing rationales. */
export const makeMetrics = async (h: Harness, headers: Headers) => {
  const confirmed = await makeMetric(h, headers, {
    name: 'Booking confirmed',
    metric_type: 'boolean',
    capture_rationale: true,
    description: 'The agent confirms booking details.',
  });
  const quality = await makeMetric(h, headers, {
    name: 'Call quality',
    metric_type: 'rating',
    capture_rationale: true,
    custom_config: { min: 1, max: 5 },
  });
  const outcome = await makeMetric(h, headers, {
    name: 'Outcome',
    metric_type: 'category',
    selection_mode: 'single_choice',
    capture_rationale: true,
  });
  for (const name of ['Resolved', 'Escalated'])
    await makeMetric(h, headers, { name, parent_metric_id: outcome.id });
  return { confirmed, quality, outcome };
};

/** An AI provider of the organization pointing at a double, with `gpt-4o-mini` as its chat model; returns its id. */
export const makeProvider = async (
  h: Harness,
  headers: Headers,
  baseUrl: string,
  isDefault: boolean,
  enabledModels: string[] = ['gpt-4o-mini'],
): Promise<string> => {
  const provider = await clientWith(h.url, headers).aiProviders.create({
    provider: 'openai',
    name: `Double ${suffix()}`,
    api_key: 'sk-double-0123456789',
    endpoint_url: baseUrl,
    enabled_models: enabledModels,
    is_default: isDefault,
  });
  return provider.id;
};

/** An agent with a suite of one persona x scenario, and the uuid of the suite's one evaluator. */
export const makeSuiteEvaluator = async (
  h: Harness,
  headers: Headers,
  metricIds: string[],
): Promise<{ agent: Agent; scenario: Scenario; suite: EvaluatorSuite; evaluatorId: string }> => {
  const client = clientWith(h.url, headers);
  const agent = await client.agents.create({
    name: `Clinic agent ${suffix()}`,
    call_type: 'inbound',
    call_medium: 'phone',
  });
  const persona = await client.personas.create({
    name: `Patient ${suffix()}`,
    tts_provider: 'cartesia',
    tts_voice_id: 'v1',
  });
  const scenario = await client.scenarios.create({
    name: `Book a cleaning ${suffix()}`,
    description: 'Caller books a cleaning',
  });
  const suite = await client.evaluatorSuites.create({
    name: `Suite ${suffix()}`,
    agent_id: agent.id,
    persona_ids: [persona.id],
    scenario_ids: [scenario.id],
    metric_ids: metricIds,
  });
  const [combination] = suite.combinations;
  if (!combination) throw new Error('the suite has no combination');
  const [evaluator] = (await client.evaluators.list({ q: combination.evaluator_id })).items;
  if (!evaluator) throw new Error(`no evaluator ${combination.evaluator_id}`);
  return { agent, scenario, suite, evaluatorId: evaluator.id };
};

/**
 * Seeds a judged evaluation in the workspace `headers` select: returns its ids, the seeded calls
 * and the evaluation row id of each conversation.
 */
export const seedEvaluation = async (
  h: Harness,
  headers: Headers,
  judgeProviderId: string,
  metrics: SeededMetrics,
) => {
  const client = clientWith(h.url, headers);
  const calls = seededCalls();
  const metricIds = [metrics.confirmed.id, metrics.quality.id, metrics.outcome.id];
  const scope = await makeSuiteEvaluator(h, headers, metricIds);
  const imported = await makeImport(
    h,
    headers,
    calls.map(({ conversation_id, transcript }) => ({ conversation_id, transcript })),
  );
  const started = await startEvaluation(h, headers, {
    call_import_id: imported.id,
    evaluator_id: scope.evaluatorId,
    ai_provider_id: judgeProviderId,
  });
  const done = await waitFor(
    () => client.evaluations.get(started.id),
    (evaluation) => !['pending', 'running'].includes(evaluation.status),
  );
  if (done.status !== 'completed') {
    const failed = await client.evaluations.listRows(started.id, { page_size: 1 });
    expect.fail(`evaluation ${done.status}: ${JSON.stringify(failed.items[0]?.error)}`);
  }
  expect(done.completed_rows).toBe(calls.length);
  const rows = await client.evaluations.listRows(started.id, { page_size: 100 });
  const rowIds = new Map(rows.items.map((r) => [r.conversation_id, r.id]));
  return { evaluationId: started.id, callImportId: imported.id, calls, rowIds, ...scope };
};
