import type { Agent, EvaluatorSuite, Metric, Persona, RequestBody, Scenario } from '@voice-eval/sdk';
import type { Harness, Tenant } from '../harness.js';
import { makeAgent, makeMetric, makePersona, makeScenario } from './evaluators.js';

/** Test factories for suites: a whole world of referenced resources, and a suite over it, through the SDK. */

let seq = 0;

/** A unique suffix for names. */
export const nextSeq = () => ++seq;

/** What a suite of `makeWorld` is made over. */
export type World = {
  agent: Agent;
  personas: [Persona, Persona];
  scenarios: [Scenario, Scenario];
  metric: Metric;
};

/** An agent on a voice bundle, two personas, two scenarios and a metric of the tenant. */
export const makeWorld = async (h: Harness, t: Tenant): Promise<World> => {
  const client = await t.client();
  const bundle = await client.voiceBundles.create({
    name: `Bundle ${++seq}`,
    bundle_type: 'tts',
    tts_provider: 'elevenlabs',
    tts_model: 'eleven_turbo_v2',
  });
  const agent = await makeAgent(h, t, {
    voice_bundle_id: bundle.id,
    call_type: 'outbound',
    call_medium: 'web',
  });
  return {
    agent,
    personas: [
      await makePersona(h, t, { name: `Zed ${++seq}` }),
      await makePersona(h, t, { name: `Amy ${++seq}` }),
    ],
    scenarios: [
      await makeScenario(h, t, { name: `B refund ${++seq}`, required_info: { order: 'A-1' } }),
      await makeScenario(h, t, { name: `A cancel ${++seq}`, agent_id: agent.id }),
    ],
    metric: await makeMetric(h, t),
  };
};

/** A suite over a new world: every persona crossed with every scenario, scored with its metric. */
export const createSuite = async (
  h: Harness,
  t: Tenant,
  overrides: Partial<RequestBody<'evaluatorSuites', 'create'>> = {},
): Promise<{ world: World; suite: EvaluatorSuite }> => {
  const world = await makeWorld(h, t);
  const suite = await (await t.client()).evaluatorSuites.create({
    name: `Suite ${++seq}`,
    agent_id: world.agent.id,
    persona_ids: world.personas.map((p) => p.id),
    scenario_ids: world.scenarios.map((s) => s.id),
    metric_ids: [world.metric.id],
    ...overrides,
  });
  return { world, suite };
};
