import { EvaluatorSuiteSchema, SuiteRunSchema } from '@voice-eval/contract';
import { expect } from 'vitest';
import type { Harness, Tenant } from '../harness.js';
import { makeAgent, makeMetric, makePersona, makeScenario } from './evaluators.js';

/** Test factories for suite runs: a suite whose agent has a connection, made through the public API. */

let seq = 0;

/** A Standard Webhooks secret for test connections. */
export const TEST_WEBHOOK_SECRET = `whsec_${Buffer.alloc(32, 7).toString('base64')}`;

/** A connection to nothing in particular: runs can be created with it (no worker calls it). */
export const idleConnection = {
  kind: 'webhook',
  url: 'http://127.0.0.1:9/webhook',
  secret: TEST_WEBHOOK_SECRET,
};

export type RunnableSuiteOptions = {
  personas?: number;
  scenarios?: number;
  /** The agent's connection; null leaves the agent without one. @default idleConnection */
  connection?: Record<string, unknown> | null;
  suite?: Record<string, unknown>;
  persona?: Record<string, unknown>;
  scenario?: (i: number) => Record<string, unknown>;
  metrics?: Array<Record<string, unknown>>;
};

/** An inbound agent with a connection, personas x scenarios, metrics, and a suite over them. */
export const makeRunnableSuite = async (h: Harness, t: Tenant, options: RunnableSuiteOptions = {}) => {
  const n = ++seq;
  const connection = options.connection === undefined ? idleConnection : options.connection;
  const agent = await makeAgent(h, t, connection ? { connection } : {});
  const personas = [];
  for (let i = 0; i < (options.personas ?? 1); i++) {
    personas.push(await makePersona(h, t, { name: `Caller ${n}.${i}`, ...options.persona }));
  }
  const scenarios = [];
  for (let i = 0; i < (options.scenarios ?? 1); i++) {
    // names sort in creation order, so combinations do too
    scenarios.push(await makeScenario(h, t, { name: `S${n}-${i}`, ...options.scenario?.(i) }));
  }
  const metrics = [];
  for (const metric of options.metrics ?? [{}]) metrics.push(await makeMetric(h, t, metric));
  const reply = await h.request('POST', '/api/v1/evaluator-suites', {
    headers: await t.as('MEMBER'),
    body: {
      name: `Run suite ${n}`,
      agent_id: agent.id,
      persona_ids: personas.map((p) => p.id),
      scenario_ids: scenarios.map((s) => s.id),
      metric_ids: metrics.map((m) => m.id),
      ...options.suite,
    },
  });
  expect(reply.status, JSON.stringify(reply.body)).toBe(201);
  return { agent, personas, scenarios, metrics, suite: EvaluatorSuiteSchema.parse(reply.body) };
};

/** Starts a run (202 expected) and returns it. */
export const startRun = async (
  h: Harness,
  t: Tenant,
  suiteId: string,
  body: Record<string, unknown> = {},
) => {
  const reply = await h.request('POST', `/api/v1/evaluator-suites/${suiteId}/runs`, {
    headers: await t.as('MEMBER'),
    body,
  });
  expect(reply.status, JSON.stringify(reply.body)).toBe(202);
  return reply.body;
};

/** Waits (up to a minute) until the run has ended, and returns it as the API shows it. */
export const runFinished = async (h: Harness, runId: string) => {
  const headers = await h.as('READER');
  await expect
    .poll(async () => (await h.request('GET', `/api/v1/suite-runs/${runId}`, { headers })).body.status, {
      timeout: 60_000,
      interval: 100,
    })
    .toMatch(/^(completed|failed|cancelled)$/);
  return SuiteRunSchema.parse((await h.request('GET', `/api/v1/suite-runs/${runId}`, { headers })).body);
};
