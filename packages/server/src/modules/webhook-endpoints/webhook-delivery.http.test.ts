import type { WebhookDelivery, WebhookEndpointWithSecret } from '@voice-eval/contract';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startWebhookReceiver, type WebhookReceiver } from '../../../test/doubles/webhook-receiver.js';
import {
  callRows,
  makeImport,
  makeMetric,
  settled,
  startEvaluation,
} from '../../../test/factories/evaluations.js';
import type { Harness, Tenant } from '../../../test/harness.js';
import { createJudgeHarness } from '../../../test/judge-harness.js';
import type { JudgeDouble } from '../../testing/judge.js';
import { finalizeSettled } from '../evaluations/work-repo.js';
import { emitEvents } from './events.js';

/** Workers on, a judge double for evaluations, a receiver on loopback, retries in milliseconds. */
let h: Harness;
let judge: JudgeDouble;
let receiver: WebhookReceiver;
beforeAll(async () => {
  receiver = await startWebhookReceiver();
  ({ h, judge } = await createJudgeHarness(
    {},
    {
      fetchAllowlist: ['127.0.0.1'],
      webhookRetryBaseMs: 20,
      webhookRetryMaxDelayMs: 60,
      webhookMaxAttempts: 4,
      webhookTimeoutMs: 5_000,
    },
  ));
});
afterAll(async () => {
  await receiver.close();
  await judge.close();
});

const BASE = '/api/v1/webhook-endpoints';

/** An endpoint of `t` POSTing to the receiver's `path`, whose secret the receiver verifies with. */
const endpointAt = async (t: Tenant, path: string, body: Record<string, unknown> = {}) => {
  const reply = await h.request<WebhookEndpointWithSecret>('POST', BASE, {
    headers: await t.as('ADMIN'),
    body: { url: `${receiver.url}${path}`, events: ['evaluation.completed'], ...body },
  });
  expect(reply.status, JSON.stringify(reply.body)).toBe(201);
  receiver.setSecret(path, reply.body.secret);
  return reply.body;
};

const deliveriesOf = async (t: Tenant, endpointId: string) =>
  (await h.request('GET', `${BASE}/${endpointId}/deliveries?page_size=100`, { headers: await t.as('ADMIN') }))
    .body.items as WebhookDelivery[];

/** Polls until every delivery of the endpoint has finished, and returns them. */
const finished = async (t: Tenant, endpointId: string, count = 1) => {
  let items: WebhookDelivery[] = [];
  await expect
    .poll(
      async () => {
        items = await deliveriesOf(t, endpointId);
        return (
          items.length === count && items.every((d) => d.status === 'delivered' || d.status === 'failed')
        );
      },
      { timeout: 20_000, interval: 25 },
    )
    .toBe(true);
  return items;
};

const ping = async (t: Tenant, endpointId: string) => {
  const reply = await h.request<WebhookDelivery>('POST', `${BASE}/${endpointId}/ping`, {
    headers: await t.as('ADMIN'),
    body: {},
  });
  expect(reply.status, JSON.stringify(reply.body)).toBe(202);
  return reply.body;
};

describe('delivering events', () => {
  it('an evaluation completing sends exactly one signed evaluation.completed, to subscribed enabled endpoints only', async () => {
    const t = await h.createTenant();
    const subscribed = await endpointAt(t, '/hooks/eval');
    const disabled = await endpointAt(t, '/hooks/eval-disabled', { enabled: false });
    const otherEvent = await endpointAt(t, '/hooks/eval-failed-only', { events: ['evaluation.failed'] });
    const headers = await t.as('MEMBER');
    const metric = await makeMetric(h, headers, { metric_type: 'boolean' });
    const imported = await makeImport(h, headers, callRows(2, 'hook'));
    const evaluation = await startEvaluation(h, headers, {
      call_import_id: imported.id,
      metric_ids: [metric.id],
    });
    expect(await settled(h, headers, evaluation.id)).toMatchObject({ status: 'completed' });
    const [delivery] = await finished(t, subscribed.id);
    // the sweeper's safety net runs again: the evaluation is settled, nothing more is recorded
    await finalizeSettled(h.db, new Date());

    const got = receiver.on('/hooks/eval');
    expect(got).toHaveLength(1);
    expect(got[0]!.verifyError).toBeNull();
    expect(got[0]!.answered).toBe(200);
    expect(got[0]!.headers['webhook-id']).toBe(delivery!.webhook_id);
    expect(got[0]!.headers['webhook-signature']).toMatch(/^v1,[A-Za-z0-9+/]+=*$/);
    expect(got[0]!.payload).toEqual({
      type: 'evaluation.completed',
      timestamp: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
      data: {
        evaluation_id: evaluation.id,
        workspace_id: t.workspaceId,
        call_import_id: imported.id,
        status: 'completed',
        total_rows: 2,
        completed_rows: 2,
        failed_rows: 0,
        flagged_rows: expect.any(Number),
        error_message: null,
      },
    });
    expect(delivery).toMatchObject({ status: 'delivered', event_type: 'evaluation.completed', error: null });
    expect(delivery!.attempts).toEqual([
      expect.objectContaining({ attempt: 1, status_code: 200, error_code: null, response_body: 'ok' }),
    ]);
    const events = await h.db('webhook_events').where({ organization_id: t.organizationId });
    expect(events.map((e) => e.type)).toEqual(['evaluation.completed']);
    expect(receiver.on('/hooks/eval-disabled')).toEqual([]);
    expect(receiver.on('/hooks/eval-failed-only')).toEqual([]);
    expect(await deliveriesOf(t, disabled.id)).toEqual([]);
    expect(await deliveriesOf(t, otherEvent.id)).toEqual([]);
  });

  it('retries a failing receiver with the same webhook-id until it answers 2xx, logging each attempt', async () => {
    const t = await h.createTenant();
    const endpoint = await endpointAt(t, '/hooks/flaky');
    receiver.failNext('/hooks/flaky', 2, 503, 'x'.repeat(5_000));
    await ping(t, endpoint.id);
    const [delivery] = await finished(t, endpoint.id);

    const got = receiver.on('/hooks/flaky');
    expect(got.map((r) => r.answered)).toEqual([503, 503, 200]);
    expect(new Set(got.map((r) => r.headers['webhook-id']))).toEqual(new Set([delivery!.webhook_id]));
    for (const r of got) expect(r.verifyError).toBeNull();
    expect(got[0]!.payload).toEqual({
      type: 'ping',
      timestamp: expect.any(String),
      data: { endpoint_id: endpoint.id },
    });
    expect(delivery!.status).toBe('delivered');
    expect(delivery!.attempts.map((a) => [a.attempt, a.status_code, a.error_code])).toEqual([
      [1, 503, 'http_error'],
      [2, 503, 'http_error'],
      [3, 200, null],
    ]);
    expect(delivery?.attempts[0]?.response_body).toBe('x'.repeat(1024));
    expect(delivery!.attempts.every((a) => a.latency_ms >= 0)).toBe(true);
    const after = await h.request('GET', `${BASE}/${endpoint.id}`, { headers: await t.as('ADMIN') });
    expect(after.body).toMatchObject({ enabled: true, failing_since: null });
  });

  it('fails a delivery after the last attempt, and disables an endpoint failing for days, which then gets nothing', async () => {
    const t = await h.createTenant();
    const endpoint = await endpointAt(t, '/hooks/down', {
      events: ['evaluation.completed', 'suite_run.failed'],
    });
    receiver.failAlways('/hooks/down', 500);
    await ping(t, endpoint.id);
    const [delivery] = await finished(t, endpoint.id);
    expect(delivery).toMatchObject({ status: 'failed', error: { code: 'attempts_exhausted' } });
    expect(delivery!.attempts).toHaveLength(4);
    expect(receiver.on('/hooks/down')).toHaveLength(4);
    const failing = (await h.request('GET', `${BASE}/${endpoint.id}`, { headers: await t.as('ADMIN') })).body;
    expect(failing).toMatchObject({ enabled: true, failing_since: expect.any(String) });

    // the streak began six days ago: the next failed attempt disables the endpoint
    const sixDaysAgo = new Date(Date.now() - 6 * 24 * 3600 * 1000);
    await h.db('webhook_endpoints').where({ id: endpoint.id }).update({ failing_since: sixDaysAgo });
    await ping(t, endpoint.id);
    await finished(t, endpoint.id, 2);
    const disabled = (await h.request('GET', `${BASE}/${endpoint.id}`, { headers: await t.as('ADMIN') }))
      .body;
    expect(disabled).toMatchObject({ enabled: false, disabled_at: expect.any(String) });
    expect(disabled.disabled_reason).toMatch(
      /^Every delivery attempt failed since .*; the last: The server answered 500/,
    );

    const before = receiver.on('/hooks/down').length;
    const queued = await h.db.transaction((trx) =>
      emitEvents(
        trx,
        [
          {
            organizationId: t.organizationId,
            type: 'suite_run.failed',
            data: {
              suite_run_id: crypto.randomUUID(),
              suite_id: crypto.randomUUID(),
              workspace_id: t.workspaceId,
              evaluation_id: null,
              status: 'failed',
              pass_rate: null,
              error_message: 'No call completed',
            },
          },
        ],
        new Date(),
      ),
    );
    expect(queued).toBe(0);
    expect(await deliveriesOf(t, endpoint.id)).toHaveLength(2);
    expect(receiver.on('/hooks/down')).toHaveLength(before);
    receiver.failAlways('/hooks/down', 200);
  });

  it('signs with the rotated secret from the next attempt on', async () => {
    const t = await h.createTenant();
    const endpoint = await endpointAt(t, '/hooks/rotated');
    const rotated = await h.request<WebhookEndpointWithSecret>(
      'POST',
      `${BASE}/${endpoint.id}/rotate-secret`,
      {
        headers: await t.as('ADMIN'),
        body: {},
      },
    );
    receiver.setSecret('/hooks/rotated', rotated.body.secret);
    await ping(t, endpoint.id);
    await finished(t, endpoint.id);
    const [got] = receiver.on('/hooks/rotated');
    expect(got!.verifyError).toBeNull();
    expect(() =>
      new Webhook(endpoint.secret).verify(got!.body, got!.headers as Record<string, string>),
    ).toThrow();
  });

  it('redelivers a delivered event with the same webhook-id', async () => {
    const t = await h.createTenant();
    const endpoint = await endpointAt(t, '/hooks/again');
    const first = await ping(t, endpoint.id);
    await finished(t, endpoint.id);
    const again = await h.request('POST', `${BASE}/${endpoint.id}/deliveries/${first.id}/redeliver`, {
      headers: await t.as('ADMIN'),
      body: {},
    });
    expect(again.status).toBe(202);
    await finished(t, endpoint.id, 2);
    const got = receiver.on('/hooks/again');
    expect(got).toHaveLength(2);
    expect(got.map((r) => r.headers['webhook-id'])).toEqual([first.webhook_id, first.webhook_id]);
    expect(got.every((r) => r.verifyError === null)).toBe(true);
  });
});
