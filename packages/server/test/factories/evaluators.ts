import { expect } from 'vitest';
import type { Harness, Tenant } from '../harness.js';

/** Test factories for what evaluators and suites reference, made through the public API. */

let seq = 0;
const unique = (label: string) => `${label} ${++seq}`;

const post = async (h: Harness, t: Tenant, path: string, body: Record<string, unknown>) => {
  const reply = await h.request('POST', path, { headers: await t.as('MEMBER'), body });
  expect(reply.status, `${path}: ${JSON.stringify(reply.body)}`).toBe(201);
  return reply.body;
};

export const makeAgent = (h: Harness, t: Tenant, overrides: Record<string, unknown> = {}) =>
  post(h, t, '/api/v1/agents', {
    name: unique('Agent'),
    call_type: 'inbound',
    call_medium: 'phone',
    ...overrides,
  });

export const makeScenario = (h: Harness, t: Tenant, overrides: Record<string, unknown> = {}) =>
  post(h, t, '/api/v1/scenarios', { name: unique('Scenario'), description: 'Caller asks', ...overrides });

export const makePersona = (h: Harness, t: Tenant, overrides: Record<string, unknown> = {}) =>
  post(h, t, '/api/v1/personas', {
    name: unique('Persona'),
    tts_provider: 'cartesia',
    tts_voice_id: 'v1',
    ...overrides,
  });

/** An active metric of the tenant's default workspace. */
export const makeMetric = (h: Harness, t: Tenant, overrides: Record<string, unknown> = {}) =>
  post(h, t, '/api/v1/metrics', { name: unique('Metric'), ...overrides });

/** A draft metric (not usable by evaluators). */
export const makeDraftMetric = (h: Harness, t: Tenant) =>
  post(h, t, '/api/v1/metrics/drafts', { name: unique('Draft') });

/** An agent, a scenario and a custom persona of the tenant: the ids an evaluator needs. */
export const makeTriple = async (h: Harness, t: Tenant) => {
  const agent = await makeAgent(h, t);
  return { agent, scenario: await makeScenario(h, t), persona: await makePersona(h, t) };
};

/** The number of evaluators the organization has, straight from the table. */
export const countEvaluators = async (h: Harness, organizationId: string) => {
  const [row] = await h.db('evaluators').where({ organization_id: organizationId }).count({ n: '*' });
  return Number(row?.n ?? 0);
};
