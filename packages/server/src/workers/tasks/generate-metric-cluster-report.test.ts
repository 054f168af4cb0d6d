import { beforeAll, describe, expect, it } from 'vitest';
import { createHarness, type Harness, type Headers } from '../../../test/harness.js';
import {
  generateMetricClusterReportTask,
  REPORT_LEASE_MS,
  REPORT_MAX_ATTEMPTS,
} from './generate-metric-cluster-report.js';

/** Drives the task by hand (no pool runs: workerConcurrency 0) with a clock the test moves. */
let h: Harness;
let member: Headers;
let clock: Date;
const task = () => generateMetricClusterReportTask({ ...h.server.deps, now: () => clock });
const signal = () => new AbortController().signal;

beforeAll(async () => {
  h = await createHarness({ workerConcurrency: 0 });
  member = await h.as('MEMBER');
  clock = new Date();
});

const CLUSTERS = '/api/v1/evaluator-results/metric-clusters';
const request = (scopeKey: string) =>
  h.request('POST', `${CLUSTERS}/generate`, { headers: member, body: { scope_key: scopeKey } });
const report = async (scopeKey: string) =>
  (await h.request('GET', `${CLUSTERS}?scope_key=${scopeKey}`, { headers: member })).body;
const row = (scopeKey: string) =>
  h.db('metric_cluster_reports').whereRaw("scope->>'scope_key' = ?", [scopeKey]).first();
/** Claims until the report of `scopeKey` is among the claimed (other files' reports are not in this database). */
const claim = async (scopeKey: string, instance = 'worker-a') => {
  const id = (await row(scopeKey)).id;
  const claimed = await task().claim(instance, 10);
  const mine = claimed.find((r) => r.id === id);
  expect(mine, `report ${scopeKey} was not claimed`).toBeDefined();
  return mine!;
};

describe('metric_cluster_report.generate', () => {
  it('records metric_clusters.completed with the report’s final write, for subscribed endpoints', async () => {
    const endpoint = await h.request('POST', '/api/v1/webhook-endpoints', {
      headers: await h.as('ADMIN'),
      body: { url: 'http://93.184.216.34/hooks', events: ['metric_clusters.completed'] },
    });
    expect(endpoint.status).toBe(201);
    await request('hooked');
    const claimed = await claim('hooked');
    await task().run(claimed, signal());
    const events = await h.db('webhook_events').where({ type: 'metric_clusters.completed' });
    expect(events.map((e) => e.data)).toEqual([
      { report_id: claimed.id, workspace_id: h.workspaceId, completed_rows: 0, llm_calls_used: 0 },
    ]);
    const deliveries = await h.db('webhook_deliveries').where({ event_id: events[0]!.id });
    expect(deliveries).toMatchObject([{ endpoint_id: endpoint.body.id, status: 'pending' }]);
    await h.request('DELETE', `/api/v1/webhook-endpoints/${endpoint.body.id}`, {
      headers: await h.as('ADMIN'),
    });
  });

  it('queues a report, claims it with a lease and completes it', async () => {
    const queued = await request('plain');
    expect(queued.status).toBe(202);
    expect(queued.body.progress).toEqual({ phase: 'queued', completed_steps: 0, total_steps: 0 });
    const claimed = await claim('plain');
    expect(claimed.status).toBe('running');
    expect(claimed.lease_owner).toMatch(/^worker-a:/);
    await task().run(claimed, signal());
    const done = await row('plain');
    expect(done).toMatchObject({ status: 'completed', lease_owner: null, attempts: 1 });
    expect(await report('plain')).toMatchObject({
      status: 'completed',
      progress: { phase: 'done' },
      overview: expect.stringMatching(/^0 flagged/),
    });
  });

  it('does not restart a queued report, and re-queues a finished one', async () => {
    const first = await request('once');
    const again = await request('once');
    expect(again.body.status).toBe('running');
    const rows = await h.db('metric_cluster_reports').whereRaw("scope->>'scope_key' = 'once'");
    expect(rows).toHaveLength(1);
    await task().run(await claim('once'), signal());
    expect((await request('once')).body).toMatchObject({ status: 'running', progress: { phase: 'queued' } });
    expect((await row('once')).status).toBe('pending');
    expect(first.status).toBe(202);
  });

  it('fences a worker whose lease expired and was taken over', async () => {
    await request('fenced');
    const stale = await claim('fenced', 'worker-a');
    clock = new Date(clock.getTime() + REPORT_LEASE_MS + 1);
    await task().sweep!();
    expect(await row('fenced')).toMatchObject({ status: 'pending', attempts: 1, lease_owner: null });
    const fresh = await claim('fenced', 'worker-b');
    await task().run(stale, signal());
    expect(await row('fenced')).toMatchObject({ status: 'running', lease_owner: fresh.lease_owner });
    await task().run(fresh, signal());
    expect(await row('fenced')).toMatchObject({ status: 'completed', attempts: 2 });
  });

  it('fails a report whose workers keep dying, keeping its last result readable', async () => {
    await request('dying');
    await task().run(await claim('dying'), signal());
    const before = await report('dying');
    await request('dying');
    for (let attempt = 1; attempt <= REPORT_MAX_ATTEMPTS; attempt++) {
      await claim('dying');
      clock = new Date(clock.getTime() + REPORT_LEASE_MS + 1);
      await task().sweep!();
    }
    const failed = await report('dying');
    expect(failed).toMatchObject({
      status: 'failed',
      overview: before.overview,
      generated_at: before.generated_at,
    });
    expect(failed.error_message).toBe(
      `Gave up after ${REPORT_MAX_ATTEMPTS} attempts whose workers stopped answering.`,
    );
  });

  it('fails a run that throws, without leaking the cause', async () => {
    await request('broken');
    await h
      .db('metric_cluster_reports')
      .whereRaw("scope->>'scope_key' = 'broken'")
      .update({
        scope: JSON.stringify({ scope_key: 'broken', agent_id: 'not-a-uuid', scenario_ids: [] }),
      });
    await task().run(await claim('broken'), signal());
    expect(await row('broken')).toMatchObject({ status: 'failed', lease_owner: null });
    const stored = await row('broken');
    expect(stored.error).toEqual({
      code: 'internal',
      message: 'Generating the report failed unexpectedly; generate it again.',
    });
  });
});
