import type { WebhookEndpointWithSecret } from '@voice-eval/contract';
import { beforeAll, describe, expect, it } from 'vitest';
import { createHarness, type Harness } from '../../../test/harness.js';
import { finishAttempt } from './send.js';

/**
 * Deleting an endpoint while an attempt on one of its deliveries finishes: the delete locks the
 * endpoint's row, then its deliveries (cascade); the attempt must take them in the same order, or
 * the two deadlock and one of them fails (a 500 to the client deleting the endpoint).
 *
 * Skipped on PGlite: one connection runs one statement at a time, so the two never interleave.
 */
describe.skipIf(!process.env.TEST_DATABASE_URL)('finishing an attempt while its endpoint is deleted', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await createHarness({ fetchAllowlist: ['127.0.0.1'] });
  });

  it('neither deadlocks: the delete goes through and the attempt is fenced', async () => {
    const endpoint = (
      await h.request<WebhookEndpointWithSecret>('POST', '/api/v1/webhook-endpoints', {
        headers: await h.as('ADMIN'),
        body: { url: 'http://127.0.0.1:9/hooks', events: ['evaluation.completed'] },
      })
    ).body;
    const [event] = await h
      .db('webhook_events')
      .insert({ organization_id: h.organizationId, type: 'evaluation.completed', data: {} })
      .returning('id');
    // a delivery a worker holds (running, leased): no worker of the server claims it
    const [delivery] = await h
      .db('webhook_deliveries')
      .insert({
        organization_id: h.organizationId,
        endpoint_id: endpoint.id,
        event_id: event.id,
        status: 'running',
        attempts: 1,
        queued_at: new Date(),
        lease_owner: 'test:lease',
        lease_expires_at: new Date(Date.now() + 60_000),
      })
      .returning(['id', 'endpoint_id', 'event_id', 'attempts', 'lease_owner']);

    // the delete's first step, on its own connection: the endpoint's row locked
    const deleting = await h.db.transaction();
    await deleting('webhook_endpoints').where({ id: endpoint.id }).forUpdate().first('id');
    const finishing = finishAttempt(h.server.deps, delivery, {
      delivered: false,
      status_code: null,
      error_code: 'connection_refused',
      error_message: 'connect ECONNREFUSED 127.0.0.1:9',
      latency_ms: 1,
      response_body: null,
    });
    // once the attempt waits on a lock in this test's database, the delete takes the deliveries
    // (the cascade's step)
    const waiting = `select count(*)::int as n from pg_locks l join pg_stat_activity a on a.pid = l.pid
      where not l.granted and a.datname = current_database()`;
    await expect.poll(async () => (await h.db.raw(waiting)).rows[0].n).toBeGreaterThan(0);
    await deleting('webhook_endpoints').where({ id: endpoint.id }).delete();
    await deleting.commit();

    await expect(finishing).resolves.toBe(false);
    expect(await h.db('webhook_deliveries').where({ id: delivery.id })).toEqual([]);
  });
});
