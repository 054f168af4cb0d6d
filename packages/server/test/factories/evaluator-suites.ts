import { EvaluatorSuiteSchema } from '@voice-eval/contract';
import { expect } from 'vitest';
import type { Harness, Tenant } from '../harness.js';
import { makeAgent, makeMetric, makePersona, makeScenario } from './evaluators.js';

/** Test factories for suites: a whole world of referenced resources, and a suite over it. */

let seq = 0;

/** A unique suffix for names. */
export const nextSeq = () => ++seq;

/** An agent on a voice bundle, two personas, two scenarios and a metric of the tenant. */
export const makeWorld = async (h: Harness, t: Tenant) => {
  const [bundle] = await h
    .db('voice_bundles')
    .insert({
      organization_id: t.organizationId,
      workspace_id: t.workspaceId,
      name: `Bundle ${++seq}`,
      bundle_type: 'tts',
      tts_provider: 'elevenlabs',
      tts_model: 'eleven_turbo_v2',
      created_by: 'test',
    })
    .returning('id');
  const agent = await makeAgent(h, t, {
    voice_bundle_id: bundle.id,
    call_type: 'outbound',
    call_medium: 'web',
  });
  const personas = [
    await makePersona(h, t, { name: `Zed ${++seq}` }),
    await makePersona(h, t, { name: `Amy ${++seq}` }),
  ];
  const scenarios = [
    await makeScenario(h, t, { name: `B refund ${++seq}`, required_info: { order: 'A-1' } }),
    await makeScenario(h, t, { name: `A cancel ${++seq}`, agent_id: agent.id }),
  ];
  return { agent, personas, scenarios, metric: await makeMetric(h, t) };
};

/** A suite over a new world: every persona crossed with every scenario, scored with its metric. */
export const createSuite = async (h: Harness, t: Tenant, body: Record<string, unknown> = {}) => {
  const world = await makeWorld(h, t);
  const reply = await h.request('POST', '/api/v1/evaluator-suites', {
    headers: await t.as('MEMBER'),
    body: {
      name: `Suite ${++seq}`,
      agent_id: world.agent.id,
      persona_ids: world.personas.map((p) => p.id),
      scenario_ids: world.scenarios.map((s) => s.id),
      metric_ids: [world.metric.id],
      ...body,
    },
  });
  expect(reply.status, JSON.stringify(reply.body)).toBe(201);
  return { world, suite: EvaluatorSuiteSchema.parse(reply.body) };
};
