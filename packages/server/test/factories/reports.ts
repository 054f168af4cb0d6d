import { type MetricClustersReport, MetricClustersReportSchema } from '@voice-eval/contract';
import { expect } from 'vitest';
import type { JudgeCall } from '../../src/testing/judge.js';
import type { Harness, Headers } from '../harness.js';
import { makeImport, makeMetric, startEvaluation } from './evaluations.js';

/**
 * Test fixtures for metric-cluster reports: an evaluation seeded through the public API (metrics,
 * a suite's evaluator, a CSV import with transcripts, an evaluation judged by the judge double),
 * with three failure modes whose rationales vary in wording, and calls that pass.
 */

const suffix = () => Math.random().toString(36).slice(2, 8);

/** POSTs a create and expects 201. */
const create = async (h: Harness, headers: Headers, path: string, body: Record<string, unknown>) => {
  const reply = await h.request('POST', path, { headers, body });
  expect(reply.status, `${path}: ${JSON.stringify(reply.body)}`).toBe(201);
  return reply.body;
};

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

/** POSTs generate (202, `running`), then polls the scope's report until its run ends. */
export const generateReport = async (
  h: Harness,
  headers: Headers,
  body: Record<string, unknown>,
): Promise<MetricClustersReport> => {
  const started = await h.request('POST', `${CLUSTERS}/generate`, { headers, body });
  expect(started.status, JSON.stringify(started.body)).toBe(202);
  expect(started.body.status).toBe('running');
  const { max_llm_calls: _budget, ...scope } = body;
  return waitFor(
    async () =>
      MetricClustersReportSchema.parse(
        (await h.request('GET', `${CLUSTERS}?${scopeQuery(scope)}`, { headers })).body,
      ),
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
  for (const name of ['Resolved', 'Escalated']) {
    const child = await h.request('POST', '/api/v1/metrics', {
      headers,
      body: { name, parent_metric_id: outcome.id },
    });
    expect(child.status, JSON.stringify(child.body)).toBe(201);
  }
  return { confirmed, quality, outcome };
};

/** An AI provider of the organization pointing at a double, with `gpt-4o-mini` as its chat model. */
export const makeProvider = async (
  h: Harness,
  headers: Headers,
  baseUrl: string,
  isDefault: boolean,
  enabledModels: string[] = ['gpt-4o-mini'],
) => {
  const created = await create(h, headers, '/api/v1/aiproviders', {
    provider: 'openai',
    name: `Double ${suffix()}`,
    api_key: 'sk-double-0123456789',
    endpoint_url: baseUrl,
    enabled_models: enabledModels,
    is_default: isDefault,
  });
  return created.id as string;
};

/** An agent with a suite of one persona x scenario, and the uuid of the suite's one evaluator. */
export const makeSuiteEvaluator = async (h: Harness, headers: Headers, metricIds: string[]) => {
  const agent = await create(h, headers, '/api/v1/agents', {
    name: `Clinic agent ${suffix()}`,
    call_type: 'inbound',
    call_medium: 'phone',
  });
  const persona = await create(h, headers, '/api/v1/personas', {
    name: `Patient ${suffix()}`,
    tts_provider: 'cartesia',
    tts_voice_id: 'v1',
  });
  const scenario = await create(h, headers, '/api/v1/scenarios', {
    name: `Book a cleaning ${suffix()}`,
    description: 'Caller books a cleaning',
  });
  const suite = await create(h, headers, '/api/v1/evaluator-suites', {
    name: `Suite ${suffix()}`,
    agent_id: agent.id,
    persona_ids: [persona.id],
    scenario_ids: [scenario.id],
    metric_ids: metricIds,
  });
  const code = suite.combinations[0].evaluator_id as string;
  const found = await h.request('GET', `/api/v1/evaluators?q=${code}`, { headers });
  return { agent, scenario, suite, evaluatorId: found.body.items[0].id as string };
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
    async () => (await h.request('GET', `/api/v1/evaluations/${started.id}`, { headers })).body,
    (evaluation) => !['pending', 'running'].includes(evaluation.status),
  );
  if (done.status !== 'completed') {
    const failed = await h.request('GET', `/api/v1/evaluations/${started.id}/rows?page_size=1`, { headers });
    expect.fail(`evaluation ${done.status}: ${JSON.stringify(failed.body.items[0]?.error)}`);
  }
  expect(done.completed_rows).toBe(calls.length);
  const rows = await h.request('GET', `/api/v1/evaluations/${started.id}/rows?page_size=100`, { headers });
  const rowIds = new Map<string, string>(
    (rows.body.items as Array<{ id: string; conversation_id: string }>).map((r) => [r.conversation_id, r.id]),
  );
  return { evaluationId: started.id, callImportId: imported.id as string, calls, rowIds, ...scope };
};
