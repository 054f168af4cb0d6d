import { type ReviewItemSchema, ReviewQueueSchema } from '@voice-eval/contract';
import type { RequestBody } from '@voice-eval/sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectProblem } from '../../../test/access-rules.js';
import { startWebhookReceiver, type WebhookReceiver } from '../../../test/doubles/webhook-receiver.js';
import {
  callRows,
  makeImport,
  makeMetric,
  settled,
  startEvaluation,
} from '../../../test/factories/evaluations.js';
import { makeReviewQueue } from '../../../test/factories/review-queues.js';
import type { Harness, Headers } from '../../../test/harness.js';
import { createJudgeHarness } from '../../../test/judge-harness.js';
import type { JudgeDouble } from '../../testing/judge.js';

/** The judge fails the calls whose transcript says FAIL, on boolean metrics. */
let h: Harness;
let judge: JudgeDouble;
let receiver: WebhookReceiver;
let alice: Headers;
let bob: Headers;
beforeAll(async () => {
  receiver = await startWebhookReceiver();
  ({ h, judge } = await createJudgeHarness(
    {
      answer: (metric, transcript) => (metric.type === 'boolean' ? !transcript.includes('FAIL') : undefined),
    },
    {
      fetchAllowlist: ['127.0.0.1'],
      webhookRetryBaseMs: 20,
    },
  ));
  alice = await h.as('MEMBER');
  bob = await h.as('ADMIN');
  const endpoint = await h.request('POST', '/api/v1/webhook-endpoints', {
    headers: bob,
    body: { url: `${receiver.url}/hooks/reviews`, events: ['review_queue.completed'] },
  });
  expect(endpoint.status, JSON.stringify(endpoint.body)).toBe(201);
  receiver.setSecret('/hooks/reviews', endpoint.body.secret);
});
afterAll(async () => {
  await judge.close();
  await receiver.close();
});

/** An evaluation of `n` calls on a boolean metric; calls in `failing` (1-based) are flagged. */
const scored = async (prefix: string, n: number, failing: readonly number[]) => {
  const metric = await makeMetric(h, alice, { metric_type: 'boolean' });
  const rows = callRows(n, prefix).map((row, i) =>
    failing.includes(i + 1) ? { ...row, transcript: `${row.transcript} FAIL` } : row,
  );
  const calls = await makeImport(h, alice, rows);
  const evaluation = await startEvaluation(h, alice, { call_import_id: calls.id, metric_ids: [metric.id] });
  expect((await settled(h, alice, evaluation.id)).status).toBe('completed');
  return { metric, calls, evaluation };
};

const itemsOf = async (queueId: string, query = '') =>
  (await h.request('GET', `/api/v1/review-queues/${queueId}/items?page_size=100${query}`, { headers: alice }))
    .body.items as Array<ReturnType<typeof ReviewItemSchema.parse>>;

const next = async (queueId: string, headers: Headers) => {
  const reply = await h.request('POST', `/api/v1/review-queues/${queueId}/next`, { headers, body: {} });
  expect(reply.status, JSON.stringify(reply.body)).toBe(200);
  return reply.body.item as ReturnType<typeof ReviewItemSchema.parse> | null;
};

describe('review queues', () => {
  it('samples an evaluation by strategy and seed: flagged calls first, the same calls for the same seed', async () => {
    const { metric, evaluation } = await scored('pick', 8, [2, 5, 7]);
    const body: RequestBody<'reviewQueues', 'create'> = {
      name: 'Flagged first',
      source: { kind: 'evaluation', evaluation_id: evaluation.id },
      metric_ids: [metric.id],
      sample_size: 5,
      strategy: 'flagged_first',
      seed: 42,
    };
    const queue = await makeReviewQueue(h, alice, body);
    expect(queue).toMatchObject({
      status: 'open',
      seed: 42,
      counts: { total: 5, open: 5, claimed: 0, done: 0 },
    });
    const items = await itemsOf(queue.id);
    expect(items.map((i) => i.position)).toEqual([1, 2, 3, 4, 5]);
    expect(new Set(items.slice(0, 3).map((i) => i.conversation_id))).toEqual(
      new Set(['pick-2', 'pick-5', 'pick-7']),
    );
    const again = await makeReviewQueue(h, alice, { ...body, name: 'Same seed' });
    expect((await itemsOf(again.id)).map((i) => i.conversation_id)).toEqual(
      items.map((i) => i.conversation_id),
    );
    // a sample larger than the source takes every call
    const all = await makeReviewQueue(h, alice, { ...body, name: 'All', sample_size: 100 });
    expect(all.counts.total).toBe(8);
  });

  it('puts calls whose labels disagree with the judge first, and samples a call import too', async () => {
    const { metric, calls, evaluation } = await scored('dispute', 6, []);
    // the judge passed every call; Alice says call 4 failed
    const row4 = calls.rowIds.get('dispute-4')!;
    await h.request('PUT', `/api/v1/metrics/${metric.id}/labels/${row4}`, {
      headers: alice,
      body: { value: false },
    });
    const queue = await makeReviewQueue(h, alice, {
      name: 'Disputes',
      source: { kind: 'evaluation', evaluation_id: evaluation.id },
      metric_ids: [metric.id],
      sample_size: 3,
      strategy: 'disagreement_first',
    });
    expect((await itemsOf(queue.id))[0]!.conversation_id).toBe('dispute-4');
    const fromImport = await makeReviewQueue(h, alice, {
      name: 'Import',
      source: { kind: 'call_import', call_import_id: calls.id },
      metric_ids: [metric.id],
      sample_size: 10,
    });
    expect(fromImport.counts.total).toBe(6);
  });

  it('never hands two reviewers the same call, a claim that expires returns to the queue, and done needs labels', async () => {
    const { metric, evaluation } = await scored('claim', 4, []);
    const queue = await makeReviewQueue(h, alice, {
      name: 'Claims',
      source: { kind: 'evaluation', evaluation_id: evaluation.id },
      metric_ids: [metric.id],
      sample_size: 4,
      lock_minutes: 10,
    });
    const carol = await h.as('OWNER');
    const key = await h.apiKey();
    const claimed = await Promise.all([next(queue.id, alice), next(queue.id, bob), next(queue.id, carol)]);
    expect(new Set(claimed.map((item) => item!.id)).size).toBe(3);
    // asking again gives each the call they hold
    expect((await next(queue.id, alice))!.id).toBe(claimed[0]!.id);
    const counts = async () =>
      (await h.request('GET', `/api/v1/review-queues/${queue.id}`, { headers: alice })).body.counts;
    expect(await counts()).toEqual({ total: 4, open: 1, claimed: 3, done: 0 });
    // Bob's session dies: his claim runs out, and his call is the first handed out again
    const bobs = claimed[1]!;
    await h
      .db('review_items')
      .where({ id: bobs.id })
      .update({ claim_expires_at: new Date(Date.now() - 1000) });
    expect(await counts()).toEqual({ total: 4, open: 2, claimed: 2, done: 0 });
    const taken = await next(queue.id, key);
    const claimedIds = claimed.map((c) => c?.id);
    const last = (await itemsOf(queue.id)).find((i) => !claimedIds.includes(i.id))!;
    expect(taken!.id).toBe(last.position < bobs.position ? last.id : bobs.id);
    expect(taken!.claimed_by).toMatch(/^api_key:/);
    const bobAgain = await next(queue.id, bob);
    expect(bobAgain!.id).not.toBe(taken!.id);
    expect(await next(queue.id, bob)).toMatchObject({ id: bobAgain!.id });
    // reading is not reviewing: a READER cannot take a call
    expectProblem(
      await h.request('POST', `/api/v1/review-queues/${queue.id}/next`, {
        headers: await h.as('READER'),
        body: {},
      }),
      403,
      'forbidden',
    );
    // another's call cannot be completed or given back; yours needs your labels first
    expectProblem(
      await h.request('POST', `/api/v1/review-queues/${queue.id}/items/${taken!.id}/complete`, {
        headers: bob,
        body: {},
      }),
      409,
      'conflict',
    );
    const complete = (item: { id: string }, headers: Headers) =>
      h.request('POST', `/api/v1/review-queues/${queue.id}/items/${item.id}/complete`, { headers, body: {} });
    expectProblem(await complete(claimed[0]!, alice), 422, 'rule_violation');
    const holders: Array<[Headers, { id: string; call_import_row_id: string }]> = [
      [alice, claimed[0]!],
      [carol, claimed[2]!],
      [key, taken!],
      [bob, bobAgain!],
    ];
    for (const [i, [headers, item]] of holders.entries()) {
      const labelled = await h.request(
        'PUT',
        `/api/v1/metrics/${metric.id}/labels/${item.call_import_row_id}`,
        {
          headers,
          body: { value: true },
        },
      );
      expect(labelled.status, JSON.stringify(labelled.body)).toBe(200);
      const done = await complete(item, headers);
      expect(done.status, JSON.stringify(done.body)).toBe(200);
      expect(done.body).toMatchObject({ status: 'done', claimed_by: null });
      if (i === 0) {
        // done twice is the same answer; a done call cannot be given back
        expect((await complete(item, headers)).body).toEqual(done.body);
        expectProblem(
          await h.request('POST', `/api/v1/review-queues/${queue.id}/items/${item.id}/release`, {
            headers,
            body: {},
          }),
          409,
          'conflict',
        );
      }
    }
    const finished = ReviewQueueSchema.parse(
      (await h.request('GET', `/api/v1/review-queues/${queue.id}`, { headers: alice })).body,
    );
    expect(finished).toMatchObject({ status: 'completed', counts: { total: 4, done: 4 } });
    expect(await next(queue.id, alice)).toBeNull();
    await expect
      .poll(() => receiver.on('/hooks/reviews').filter((r) => r.payload?.data.queue_id === queue.id).length, {
        timeout: 10_000,
      })
      .toBe(1);
    const [event] = receiver.on('/hooks/reviews').filter((r) => r.payload?.data.queue_id === queue.id);
    expect(event!.payload).toMatchObject({
      type: 'review_queue.completed',
      data: { name: 'Claims', items: 4, metric_ids: [metric.id] },
    });
  });

  it('gives a call back on release, keeps assigned queues to their reviewers, and refuses bad sources', async () => {
    const { metric, evaluation } = await scored('assign', 2, []);
    const me = (await h.request('GET', '/api/v1/auth/me', { headers: alice })).body.user.email as string;
    const queue = await makeReviewQueue(h, alice, {
      name: 'Assigned',
      source: { kind: 'evaluation', evaluation_id: evaluation.id },
      metric_ids: [metric.id],
      sample_size: 2,
      assignees: [me],
    });
    expectProblem(
      await h.request('POST', `/api/v1/review-queues/${queue.id}/next`, { headers: bob, body: {} }),
      403,
      'forbidden',
    );
    const mine = await next(queue.id, alice);
    const released = await h.request('POST', `/api/v1/review-queues/${queue.id}/items/${mine!.id}/release`, {
      headers: alice,
      body: {},
    });
    expect(released.body).toMatchObject({ status: 'open', claimed_by: null });
    expect((await next(queue.id, alice))!.id).toBe(mine!.id);
    const bad = async (body: Record<string, unknown>, status: number, code: string) =>
      expectProblem(
        await h.request('POST', '/api/v1/review-queues', {
          headers: alice,
          body: { name: 'Bad', metric_ids: [metric.id], sample_size: 2, ...body },
        }),
        status,
        code,
      );
    await bad({ source: { kind: 'evaluation', evaluation_id: crypto.randomUUID() } }, 404, 'not_found');
    await bad({ source: { kind: 'suite_run', suite_run_id: crypto.randomUUID() } }, 404, 'not_found');
    await bad({ source: { kind: 'tape', id: 'x' } }, 422, 'validation_failed');
    await bad(
      { source: { kind: 'evaluation', evaluation_id: evaluation.id }, metric_ids: [crypto.randomUUID()] },
      422,
      'rule_violation',
    );
    await bad(
      { source: { kind: 'evaluation', evaluation_id: evaluation.id }, sample_size: 0 },
      422,
      'validation_failed',
    );
    const other = await h.createTenant();
    expectProblem(
      await h.request('GET', `/api/v1/review-queues/${queue.id}`, { headers: await other.as('OWNER') }),
      404,
      'not_found',
    );
    const deleted = await h.request('DELETE', `/api/v1/review-queues/${queue.id}`, { headers: alice });
    expect(deleted.status).toBe(204);
    // the labels given stay with their metric
    expect((await h.request('GET', `/api/v1/review-queues/${queue.id}`, { headers: alice })).status).toBe(
      404,
    );
  });
});
