import { randomUUID } from 'node:crypto';
import {
  AgentCreateBodySchema,
  type EvaluatorSuite,
  EvaluatorSuiteCreateBodySchema,
  MetricCreateBodySchema,
  PersonaCreateBodySchema,
  ScenarioCreateBodySchema,
} from '@voice-eval/contract';
import { type RequestContext, systemContext } from '../../src/context.js';
import type { Deps } from '../../src/deps.js';
import { createAgent } from '../../src/modules/agents/service.js';
import { createSuite } from '../../src/modules/evaluator-suites/service.js';
import { createMetric } from '../../src/modules/metrics/service.js';
import { createPersona } from '../../src/modules/personas/service.js';
import { createScenario } from '../../src/modules/scenarios/service.js';
import { makeOrganization } from './dispatch.js';

/**
 * Test factories for the scheduler, through the services (no HTTP: the scheduler tests run
 * several server instances on one database and need no listener). Bodies go through the
 * contract's schemas so defaults apply as on the wire.
 */

/**
 * Where the agent's connection points: the discard port of the loopback address, so the calls
 * the scheduled runs queue fail at once instead of reaching anything. Servers of these tests must
 * allow it: `fetchAllowlist: [AGENT_HOST]`.
 */
export const AGENT_HOST = '127.0.0.1';

/** A new organization with its default workspace, and a context acting in it. */
export const makeScheduleTenant = async (deps: Deps): Promise<RequestContext> =>
  systemContext(await makeOrganization(deps.db), 'test');

export type ScheduledSuiteOptions = {
  schedule: string;
  /** The clock when the suite is created: `next_run_at` is the schedule's first slot after it. */
  createdAt: Date;
  /** Give the agent a connection (a suite without one cannot run). @default true */
  connection?: boolean;
  /** @default true */
  isActive?: boolean;
};

/**
 * A suite that can run (an agent with a connection, one persona, one scenario, an active metric)
 * with an enabled schedule, created with the clock at `createdAt`.
 */
export const makeScheduledSuite = async (
  deps: Deps,
  ctx: RequestContext,
  options: ScheduledSuiteOptions,
): Promise<EvaluatorSuite> => {
  const tag = randomUUID().slice(0, 8);
  const connection = { kind: 'openai_chat', base_url: `http://${AGENT_HOST}:9/v1`, model: 'agent-model' };
  const agent = await createAgent(
    deps,
    ctx,
    AgentCreateBodySchema.parse({
      name: `Agent ${tag}`,
      call_type: 'inbound',
      call_medium: 'web',
      ...(options.connection === false ? {} : { connection }),
    }),
  );
  const persona = await createPersona(
    deps,
    ctx,
    PersonaCreateBodySchema.parse({ name: `Persona ${tag}`, tts_provider: 'cartesia', tts_voice_id: 'v1' }),
  );
  const scenario = await createScenario(
    deps,
    ctx,
    ScenarioCreateBodySchema.parse({ name: `Scenario ${tag}`, description: 'Caller asks for a refund' }),
  );
  const metric = await createMetric(deps, ctx, MetricCreateBodySchema.parse({ name: `Metric ${tag}` }));
  const body = EvaluatorSuiteCreateBodySchema.parse({
    name: `Scheduled ${tag}`,
    agent_id: agent.id,
    persona_ids: [persona.id],
    scenario_ids: [scenario.id],
    metric_ids: [metric.id],
    is_active: options.isActive ?? true,
    schedule: options.schedule,
    schedule_enabled: true,
  });
  return createSuite({ ...deps, now: () => options.createdAt }, ctx, body);
};
