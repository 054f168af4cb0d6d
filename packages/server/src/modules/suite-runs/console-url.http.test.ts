import { SuiteRunSchema } from '@voice-eval/contract';
import { beforeAll, describe, expect, it } from 'vitest';
import { makeRunnableSuite, startRun } from '../../../test/factories/suite-runs.js';
import { createHarness, type Harness } from '../../../test/harness.js';
import { settleRun } from './settle.js';

// A server with a public URL (under a host app's prefix); no workers, so runs stay as created.
// Without a public URL, suite-runs.http.test.ts checks that the link is null.
const PUBLIC_URL = 'https://evals.example.com/voice';
const pageOf = (runId: string) => `${PUBLIC_URL}/console/runs/${runId}`;

let h: Harness;
beforeAll(async () => {
  h = await createHarness({ workerConcurrency: 0, fetchAllowlist: ['127.0.0.1'], publicUrl: PUBLIC_URL });
});

const get = async (path: string) => h.request('GET', path, { headers: await h.as('READER') });

/** Runs `fn` with the console turned off, as `console: false` does. */
const withConsoleOff = async <T>(fn: () => Promise<T>): Promise<T> => {
  const { deps } = h.server;
  const real = deps.config;
  deps.config = { ...real, console: false };
  try {
    return await fn();
  } finally {
    deps.config = real;
  }
};

/** A run of a new tenant subscribed to suite_run events, failed (no call completed) and settled. */
const failedRunEvent = async () => {
  const t = await h.createTenant();
  const endpoint = await h.request('POST', '/api/v1/webhook-endpoints', {
    headers: await t.as('ADMIN'),
    body: { url: 'http://127.0.0.1:9/hooks', events: ['suite_run.failed', 'suite_run.completed'] },
  });
  expect(endpoint.status).toBe(201);
  const { suite } = await makeRunnableSuite(h, t);
  const run = await startRun(h, t, suite.id);
  await h.db('suite_run_calls').where({ run_id: run.id }).update({ status: 'failed' });
  expect(await settleRun(h.server.deps, run.id)).toBe(true);
  const events = await h.db('webhook_events').where({ organization_id: t.organizationId });
  expect(events).toHaveLength(1);
  return { run, event: events[0]! };
};

describe('console_url of a suite run', () => {
  it("is the run's console page under the public URL on create, get, list and cancel", async () => {
    const { suite } = await makeRunnableSuite(h, h);
    const created = SuiteRunSchema.parse(await startRun(h, h, suite.id));
    expect(created.console_url).toBe(pageOf(created.id));
    expect((await get(`/api/v1/suite-runs/${created.id}`)).body.console_url).toBe(pageOf(created.id));
    const listed = (await get(`/api/v1/suite-runs?suite_id=${suite.id}`)).body.items;
    expect(listed.map((r: { console_url: string }) => r.console_url)).toEqual([pageOf(created.id)]);
    const cancelled = await h.request('POST', `/api/v1/suite-runs/${created.id}/cancel`, {
      headers: await h.as('MEMBER'),
      body: {},
    });
    expect(cancelled.body).toMatchObject({ status: 'cancelled', console_url: pageOf(created.id) });
  });

  it('is null when the server does not serve the console', async () => {
    const { suite } = await makeRunnableSuite(h, h);
    const run = await startRun(h, h, suite.id);
    const reply = await withConsoleOff(() => get(`/api/v1/suite-runs/${run.id}`));
    expect(reply.status).toBe(200);
    expect(reply.body.console_url).toBeNull();
  });
});

describe('console_url of suite_run webhook events', () => {
  it("is the run's console page under the public URL", async () => {
    const { run, event } = await failedRunEvent();
    expect(event).toMatchObject({
      type: 'suite_run.failed',
      data: { suite_run_id: run.id, status: 'failed', console_url: pageOf(run.id) },
    });
  });

  it('is null when the server does not serve the console', async () => {
    const { event } = await withConsoleOff(failedRunEvent);
    expect(event.data).toHaveProperty('console_url', null);
  });
});
