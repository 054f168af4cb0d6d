import type {
  Agent,
  EvaluatorSuite,
  Metric,
  Persona,
  RequestBody,
  Scenario,
  SuiteRun,
} from '@voice-eval/sdk';
import { expect } from 'vitest';
import type { Harness, Tenant } from '../harness.js';
import { makeAgent, makeMetric, makePersona, makeScenario } from './evaluators.js';

/** Test factories for suite runs: a suite whose agent has a connection, made through the SDK. */

let seq = 0;

/** A Standard Webhooks secret for test connections. */
export const TEST_WEBHOOK_SECRET = `whsec_${Buffer.alloc(32, 7).toString('base64')}`;

type Connection = RequestBody<'agents', 'create'>['connection'];
type MetricOverrides = Partial<RequestBody<'metrics', 'create'>>;

/** A connection to nothing in particular: runs can be created with it (no worker calls it). */
export const idleConnection: Connection = {
  kind: 'webhook',
  url: 'http://127.0.0.1:9/webhook',
  secret: TEST_WEBHOOK_SECRET,
};

export type RunnableSuiteOptions<M extends readonly MetricOverrides[] = readonly MetricOverrides[]> = {
  personas?: number;
  scenarios?: number;
  /** The agent's connection; null leaves the agent without one. @default idleConnection */
  connection?: Connection;
  suite?: Partial<RequestBody<'evaluatorSuites', 'create'>>;
  persona?: Partial<RequestBody<'personas', 'create'>>;
  scenario?: (i: number) => Partial<RequestBody<'scenarios', 'create'>>;
  /** One metric per entry, made with these overrides. @default [{}] */
  metrics?: M;
};

/**
 * An inbound agent with a connection, personas x scenarios, metrics, and a suite over them. The
 * metrics come back in the order, and as a tuple of the length, of `options.metrics`.
 */
export const makeRunnableSuite = async <
  const M extends readonly MetricOverrides[] = readonly [MetricOverrides],
>(
  h: Harness,
  t: Tenant,
  options: RunnableSuiteOptions<M> = {},
): Promise<{
  agent: Agent;
  personas: Persona[];
  scenarios: Scenario[];
  metrics: { -readonly [K in keyof M]: Metric };
  suite: EvaluatorSuite;
}> => {
  const n = ++seq;
  const connection = options.connection === undefined ? idleConnection : options.connection;
  const agent = await makeAgent(h, t, connection ? { connection } : {});
  const personas: Persona[] = [];
  for (let i = 0; i < (options.personas ?? 1); i++) {
    personas.push(await makePersona(h, t, { name: `Caller ${n}.${i}`, ...options.persona }));
  }
  const scenarios: Scenario[] = [];
  for (let i = 0; i < (options.scenarios ?? 1); i++) {
    // names sort in creation order, so combinations do too
    scenarios.push(await makeScenario(h, t, { name: `S${n}-${i}`, ...options.scenario?.(i) }));
  }
  const metrics: Metric[] = [];
  for (const metric of options.metrics ?? [{}]) metrics.push(await makeMetric(h, t, metric));
  const suite = await (await t.client()).evaluatorSuites.create({
    name: `Run suite ${n}`,
    agent_id: agent.id,
    persona_ids: personas.map((p) => p.id),
    scenario_ids: scenarios.map((s) => s.id),
    metric_ids: metrics.map((m) => m.id),
    ...options.suite,
  });
  // one metric per entry of `options.metrics`, in its order: the tuple the signature promises
  return { agent, personas, scenarios, metrics: metrics as { -readonly [K in keyof M]: Metric }, suite };
};

/** Starts a run of the suite as a MEMBER and returns it. */
export const startRun = async (
  _h: Harness,
  t: Tenant,
  suiteId: string,
  body: RequestBody<'suiteRuns', 'create'> = {},
): Promise<SuiteRun> => (await t.client()).suiteRuns.create(suiteId, body);

/** Waits (up to `timeoutMs`) until the run has ended, and returns it as the API shows it. */
export const runFinished = async (h: Harness, runId: string, timeoutMs = 60_000): Promise<SuiteRun> => {
  const client = await h.client('READER');
  await expect
    .poll(async () => (await client.suiteRuns.get(runId)).status, { timeout: timeoutMs, interval: 100 })
    .toMatch(/^(completed|failed|cancelled)$/);
  return client.suiteRuns.get(runId);
};
