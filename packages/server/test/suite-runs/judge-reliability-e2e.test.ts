import {
  ConsistencyCheckSchema,
  MetricAgreementSchema,
  ReviewQueueSchema,
  SuiteRunComparisonSchema,
} from '@voice-eval/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type AgentDouble, startAgentDouble } from '../../src/testing/agent.js';
import { type JudgeDouble, startJudgeDouble } from '../../src/testing/judge.js';
import { type PersonaDouble, startPersonaDouble } from '../../src/testing/persona.js';
import { expectProblem } from '../access-rules.js';
import { settled } from '../factories/evaluations.js';
import { makeRunnableSuite, runFinished, startRun } from '../factories/suite-runs.js';
import { createHarness, type Harness, type Headers } from '../harness.js';

/**
 * The judge measured as an instrument, end to end over real HTTP: a suite run, a review queue over
 * it labelled by two people, the judge's agreement with them, a reworded draft tried on the same
 * calls and promoted (version 2), the next run scored with it and compare warning across versions,
 * then a consistency check whose flip rate makes compare read a change as the judge's noise.
 *
 * The judge double answers the read-back metric leniently (always yes) until its description says
 * STRICT, then truly (did the agent read the date back); while `wobble` is on it contradicts itself
 * each time it sees the same call again.
 */

const READBACK = /So that's /;
let h: Harness;
let agent: AgentDouble;
let judge: JudgeDouble;
let persona: PersonaDouble;
let metricId = '';
let wobble = false;
const seen = new Map<string, number>();

beforeAll(async () => {
  agent = await startAgentDouble({ latencyMs: 1 });
  judge = await startJudgeDouble({
    answer: (metric, transcript) => {
      if (metric.key !== metricId) return true;
      if (wobble) {
        const times = seen.get(transcript) ?? 0;
        seen.set(transcript, times + 1);
        return times % 2 === 0;
      }
      return metric.description.includes('STRICT') ? READBACK.test(transcript) : true;
    },
  });
  persona = await startPersonaDouble({ forwardTo: judge.url });
  h = await createHarness({
    fetchAllowlist: ['127.0.0.1'],
    env: { VOICE_EVAL_LLM_BASE_URL: persona.url, VOICE_EVAL_LLM_MODEL: 'caller-and-judge' },
  });
});
afterAll(async () => {
  await Promise.all([agent.close(), judge.close(), persona.close()]);
});

/** The body of a reply that must have this status (the harness types bodies loosely). */
const ok = async <Body>(reply: { status: number; body: Body }, status = 200): Promise<Body> => {
  expect(reply.status, JSON.stringify(reply.body)).toBe(status);
  return reply.body;
};

/** Whether the agent read the date back on each call of the import, by row id. */
const readBacks = async (headers: Headers, importId: string) => {
  const detail = await ok(
    await h.request('GET', `/api/v1/call-imports/${importId}?row_limit=100`, { headers }),
  );
  return new Map<string, boolean>(
    detail.rows.map((row: { id: string; diarised_transcript: Array<{ text: string }> }) => [
      row.id,
      READBACK.test(row.diarised_transcript.map((t) => t.text).join(' ')),
    ]),
  );
};

/** The metric versions the evaluation's results on the metric carry. */
const versionsIn = async (headers: Headers, evaluationId: string | null) => {
  const rows = await ok(
    await h.request('GET', `/api/v1/evaluations/${evaluationId}/rows?page_size=100`, { headers }),
  );
  return new Set(
    rows.items.flatMap((row: { results: Array<{ metric_id: string; metric_version: number }> }) =>
      row.results.filter((r) => r.metric_id === metricId).map((r) => r.metric_version),
    ),
  );
};

describe('judge reliability over a suite run', () => {
  it('labels, measures, tries a draft, versions the scores and reads the judge’s noise', async () => {
    const alice = await h.as('MEMBER');
    const bob = await h.as('ADMIN');
    const world = await makeRunnableSuite(h, h, {
      connection: { kind: 'openai_chat', base_url: agent.chatBaseUrl, model: 'clinic-agent' },
      // eight calls, each with its own date, so no two transcripts are the same: the wobbling judge
      // counts its sightings per transcript, and calls sharing one would share the count
      scenarios: 8,
      scenario: (i) => ({
        description: 'Book a checkup.',
        required_info: { name: 'Ada Lovelace', date: `March ${i + 1}` },
      }),
      metrics: [
        { name: 'Confirms the booking', metric_type: 'boolean', description: 'Was the booking confirmed?' },
      ],
    });
    metricId = world.metrics[0]!.id;
    agent.setOptions({ skipReadbackRate: 0.5 });
    const first = await runFinished(h, (await startRun(h, h, world.suite.id)).id);
    expect(first).toMatchObject({ status: 'completed', calls_completed: 8 });
    const truth = await readBacks(alice, first.call_import_id!);

    // a review queue over the run; two people take calls at the same time and never the same one
    const queue = ReviewQueueSchema.parse(
      await ok(
        await h.request('POST', '/api/v1/review-queues', {
          headers: alice,
          body: {
            name: 'Read-backs',
            source: { kind: 'suite_run', suite_run_id: first.id },
            metric_ids: [metricId],
            sample_size: 8,
            seed: 11,
          },
        }),
        201,
      ),
    );
    const take = async (headers: Headers) =>
      (await ok(await h.request('POST', `/api/v1/review-queues/${queue.id}/next`, { headers, body: {} })))
        .item;
    const label = async (headers: Headers, item: { id: string; call_import_row_id: string }) => {
      await ok(
        await h.request('PUT', `/api/v1/metrics/${metricId}/labels/${item.call_import_row_id}`, {
          headers,
          body: { value: truth.get(item.call_import_row_id), note: 'Listened to the read-back.' },
        }),
      );
      await ok(
        await h.request('POST', `/api/v1/review-queues/${queue.id}/items/${item.id}/complete`, {
          headers,
          body: {},
        }),
      );
    };
    for (;;) {
      const [mine, theirs] = await Promise.all([take(alice), take(bob)]);
      if (mine && theirs) expect(mine.id).not.toBe(theirs.id);
      if (!mine && !theirs) break;
      if (mine) await label(alice, mine);
      if (theirs) await label(bob, theirs);
    }
    const done = ReviewQueueSchema.parse(
      await ok(await h.request('GET', `/api/v1/review-queues/${queue.id}`, { headers: alice })),
    );
    expect(done).toMatchObject({ status: 'completed', counts: { total: 8, done: 8 } });

    // version 1 says yes to every call: it agrees with people only where the date was read back
    const agreement = async (query: string) =>
      MetricAgreementSchema.parse(
        await ok(await h.request('GET', `/api/v1/metrics/${metricId}/agreement${query}`, { headers: alice })),
      );
    const readBackCount = [...truth.values()].filter(Boolean).length;
    const v1 = await agreement('?version=1');
    expect(v1.n).toBe(8);
    expect(v1.categorical?.accuracy?.estimate).toBeCloseTo(readBackCount / 8, 10);
    expect(v1.disagreements).toHaveLength(8 - readBackCount);

    // a reworded draft, scored on the labelled calls, beside version 1 on the same calls
    const draft = await ok(
      await h.request('POST', `/api/v1/metrics/${metricId}/versions`, {
        headers: alice,
        body: { description: 'STRICT: confirmed only if the agent read the date back to the caller.' },
      }),
      201,
    );
    expect(draft).toMatchObject({ version: 2, status: 'draft', based_on: 1 });
    const scoring = await ok(
      await h.request('POST', `/api/v1/metrics/${metricId}/versions/2/score`, { headers: alice, body: {} }),
      202,
    );
    for (const evaluation of scoring.evaluations) {
      expect((await settled(h, alice, evaluation.id)).status).toBe('completed');
    }
    const paired = await agreement('?version=2&baseline_version=1');
    expect(paired.categorical?.accuracy?.estimate).toBe(1);
    expect(paired.paired).toMatchObject({ n: 8, better: 8 - readBackCount, worse: 0 });

    // promoted: version 2 is what the next run scores with, and compare says the versions differ
    await ok(
      await h.request('POST', `/api/v1/metrics/${metricId}/versions/2/promote`, { headers: alice, body: {} }),
    );
    agent.setOptions({ skipReadbackRate: 0 });
    const second = await runFinished(h, (await startRun(h, h, world.suite.id)).id);
    expect(await versionsIn(alice, first.evaluation_id)).toEqual(new Set([1]));
    expect(await versionsIn(alice, second.evaluation_id)).toEqual(new Set([2]));
    const acrossVersions = SuiteRunComparisonSchema.parse(
      await ok(await h.request('GET', `/api/v1/suite-runs/${second.id}/compare`, { headers: alice })),
    );
    expect(acrossVersions.metrics[0]).toMatchObject({
      version: 2,
      baseline_version: 1,
      version_changed: true,
    });
    expect(acrossVersions.warnings[0]).toMatch(/scored with version 2 here and version 1 in the baseline/);

    // the judge re-scores run 2's calls three times and contradicts itself on every one
    wobble = true;
    const started = ConsistencyCheckSchema.parse(
      await ok(
        await h.request('POST', `/api/v1/metrics/${metricId}/consistency-checks`, {
          headers: alice,
          body: {
            source: { kind: 'evaluation', evaluation_id: second.evaluation_id },
            sample_size: 8,
            repeats: 3,
          },
        }),
        202,
      ),
    );
    expect(started).toMatchObject({ version: 2, calls: 8, repeats: 3, status: 'running' });
    expect(started.evaluation_ids).toHaveLength(3);
    for (const id of started.evaluation_ids) expect((await settled(h, alice, id)).status).toBe('completed');
    const check = ConsistencyCheckSchema.parse(
      await ok(
        await h.request('GET', `/api/v1/metrics/${metricId}/consistency-checks/${started.id}`, {
          headers: alice,
        }),
      ),
    );
    expect(check).toMatchObject({ status: 'completed', n: 8, flipped: 8, value_changed: 8 });
    expect(check.flip_rate?.estimate).toBe(1);
    expect([...seen.values()]).toEqual([3, 3, 3, 3, 3, 3, 3, 3]); // eight transcripts, three sightings each
    wobble = false;

    // the agent stops reading back: every call fails, a significant drop, but no larger than the
    // judge's own flip rate on these calls, so it is read as noise and does not fail the gate
    agent.setOptions({ skipReadbackRate: 1 });
    const third = await runFinished(h, (await startRun(h, h, world.suite.id)).id);
    const compared = SuiteRunComparisonSchema.parse(
      await ok(
        await h.request('GET', `/api/v1/suite-runs/${third.id}/compare?baseline_run_id=${second.id}`, {
          headers: alice,
        }),
      ),
    );
    expect(compared.metrics[0]).toMatchObject({
      delta: -1,
      significant: true,
      regression: false,
      judge_flip_rate: 1,
      within_judge_noise: true,
    });
    expect(compared.regressed).toBe(false);
    expect(compared.warnings).toEqual([
      "\"Confirms the booking\" moved 100.0 points, within its judge's flip rate (100.0% of calls change verdict when scored again): read it as the judge's noise, not the agent's change.",
    ]);
  }, 180_000);

  it('refuses a consistency check it cannot run, and garbage, starting nothing', async () => {
    const member = await h.as('MEMBER');
    const check = (id: string, body: unknown) =>
      h.request('POST', `/api/v1/metrics/${id}/consistency-checks`, { headers: member, body });
    const metric = await ok(
      await h.request('POST', '/api/v1/metrics', {
        headers: member,
        body: { name: 'Steady', metric_type: 'boolean' },
      }),
      201,
    );
    const evaluation = { kind: 'evaluation', evaluation_id: crypto.randomUUID() };
    expectProblem(await check(metric.id, { source: evaluation }), 404, 'not_found');
    expectProblem(await check(crypto.randomUUID(), { source: evaluation }), 404, 'not_found');
    expectProblem(await check(metric.id, { source: { kind: 'suite_run' } }), 422, 'validation_failed');
    expectProblem(await check(metric.id, { source: evaluation, repeats: 1 }), 422, 'validation_failed');
    expectProblem(
      await check(metric.id, { source: evaluation, sample_size: 'all' }),
      422,
      'validation_failed',
    );
    const draft = await ok(
      await h.request('POST', '/api/v1/metrics/drafts', {
        headers: member,
        body: { name: 'Unsteady draft' },
      }),
      201,
    );
    expectProblem(await check(draft.id, { source: evaluation }), 422, 'rule_violation');
    const list = await ok(
      await h.request('GET', `/api/v1/metrics/${metric.id}/consistency-checks`, {
        headers: await h.as('READER'),
      }),
    );
    expect(list.items).toEqual([]);
    expectProblem(
      await h.request('GET', `/api/v1/metrics/${metric.id}/consistency-checks/${crypto.randomUUID()}`, {
        headers: member,
      }),
      404,
      'not_found',
    );
    expectProblem(
      await h.request('POST', `/api/v1/metrics/${metric.id}/consistency-checks`, {
        headers: await h.as('READER'),
        body: { source: evaluation },
      }),
      403,
      'forbidden',
    );
  });
});
