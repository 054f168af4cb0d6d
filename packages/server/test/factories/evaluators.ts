import type { Agent, Evaluator, Metric, Persona, RequestBody, Scenario } from '@voice-eval/sdk';
import type { Harness, Tenant } from '../harness.js';

/**
 * Test factories for what evaluators and suites reference, made through the SDK as a MEMBER of
 * the tenant. The harness argument is unused: it keeps the call shape of the other factories.
 */

let seq = 0;
const unique = (label: string) => `${label} ${++seq}`;

export const makeAgent = async (
  _h: Harness,
  t: Tenant,
  overrides: Partial<RequestBody<'agents', 'create'>> = {},
): Promise<Agent> =>
  (await t.client()).agents.create({
    name: unique('Agent'),
    call_type: 'inbound',
    call_medium: 'phone',
    ...overrides,
  });

export const makeScenario = async (
  _h: Harness,
  t: Tenant,
  overrides: Partial<RequestBody<'scenarios', 'create'>> = {},
): Promise<Scenario> =>
  (await t.client()).scenarios.create({ name: unique('Scenario'), description: 'Caller asks', ...overrides });

export const makePersona = async (
  _h: Harness,
  t: Tenant,
  overrides: Partial<RequestBody<'personas', 'create'>> = {},
): Promise<Persona> =>
  (await t.client()).personas.create({
    name: unique('Persona'),
    tts_provider: 'cartesia',
    tts_voice_id: 'v1',
    ...overrides,
  });

/** An active metric of the tenant's default workspace. */
export const makeMetric = async (
  _h: Harness,
  t: Tenant,
  overrides: Partial<RequestBody<'metrics', 'create'>> = {},
): Promise<Metric> => (await t.client()).metrics.create({ name: unique('Metric'), ...overrides });

/** A draft metric (not usable by evaluators). */
export const makeDraftMetric = async (
  _h: Harness,
  t: Tenant,
  overrides: Partial<RequestBody<'metrics', 'createDraft'>> = {},
): Promise<Metric> => (await t.client()).metrics.createDraft({ name: unique('Draft'), ...overrides });

/** An agent, a scenario and a custom persona of the tenant: the ids an evaluator needs. */
export const makeTriple = async (h: Harness, t: Tenant) => {
  const agent = await makeAgent(h, t);
  return { agent, scenario: await makeScenario(h, t), persona: await makePersona(h, t) };
};

/** The number of evaluators the organization has, straight from the table. */
export const countEvaluators = async (h: Harness, organizationId: string): Promise<number> => {
  const [row] = await h.db('evaluators').where({ organization_id: organizationId }).count({ n: '*' });
  return Number(row?.n ?? 0);
};

/** An evaluator of the tenant over a new agent, scenario and custom persona (through the SDK as a MEMBER). */
export const makeEvaluator = async (
  h: Harness,
  t: Tenant,
  overrides: Partial<RequestBody<'evaluators', 'create'>> = {},
): Promise<Evaluator> => {
  const { agent, scenario, persona } = await makeTriple(h, t);
  return (await t.client()).evaluators.create({
    agent_id: agent.id,
    scenario_id: scenario.id,
    persona_id: persona.id,
    ...overrides,
  });
};
