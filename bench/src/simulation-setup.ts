/** Tenants of the simulation benchmark, set up through the public HTTP API. */
import type { Api } from './dispatch-scenarios.js';

/** An organization (the tenant) whose default workspace has a suite ready to run. */
export type SuiteTenant = { label: string; token: string; suiteId: string };

/** A run as the bench needs it; `at`: when its calls were queued (the 202 came back), epoch ms. */
export type StartedRun = { id: string; tenant: SuiteTenant; at: number };

/** A call as the bench reads it back. */
export type ReadCall = {
  id: string;
  status: string;
  end_reason: string | null;
  turns: number;
  started_at: string | null;
  completed_at: string | null;
};

/**
 * What the scripted caller is told: its date answer contains "name", so the agent's read-back
 * ("So that's the day you name, correct?") makes the caller give its name again, which the agent
 * takes for a "no" and asks for the date again. Neither side ever says goodbye on its own: every
 * call ends on the persona's last turn (`max_turns`), so all calls have the same number of turns.
 */
const ENDLESS_BOOKING = { name: 'Ada Lovelace', date: 'the day you name' };

const signup = async (api: Api, label: string): Promise<string> => {
  const res = await fetch(`${api.url}/api/v1/auth/signup`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email: `${label}-${Date.now()}@bench.test`, password: 'bench password' }),
  });
  if (!res.ok) throw new Error(`signup ${label}: ${res.status} ${await res.text()}`);
  return (await res.json()).access_token as string;
};

/**
 * An organization with an agent reached through `agentBaseUrl` (`openai_chat`), one persona of
 * `maxTurns` turns, `scenarios` scenarios of the endless booking, one metric, and a suite over them.
 */
export const makeSuiteTenant = async (
  api: Api,
  label: string,
  options: { agentBaseUrl: string; maxTurns: number; scenarios: number },
): Promise<SuiteTenant> => {
  const token = await signup(api, label);
  const post = (path: string, body: unknown) => api.call('POST', path, token, body);
  const agent = await post('/api/v1/agents', {
    name: `${label} clinic`,
    call_type: 'inbound',
    call_medium: 'phone',
    connection: { kind: 'openai_chat', base_url: options.agentBaseUrl, model: 'clinic-agent' },
  });
  const persona = await post('/api/v1/personas', {
    name: `${label} caller`,
    tts_provider: 'cartesia',
    tts_voice_id: 'v1',
    max_turns: options.maxTurns,
  });
  const scenarioIds: string[] = [];
  for (let i = 0; i < options.scenarios; i++) {
    const scenario = await post('/api/v1/scenarios', {
      name: `${label} booking ${i + 1}`,
      description: 'Book a checkup.',
      required_info: ENDLESS_BOOKING,
    });
    scenarioIds.push(scenario.id);
  }
  const metric = await post('/api/v1/metrics', { name: 'Booked', metric_type: 'boolean' });
  const suite = await post('/api/v1/evaluator-suites', {
    name: `${label} suite`,
    agent_id: agent.id,
    persona_ids: [persona.id],
    scenario_ids: scenarioIds,
    metric_ids: [metric.id],
  });
  return { label, token, suiteId: suite.id };
};

/** Starts a run of the tenant's suite (`calls`: the next N combinations; else every one `runs` times). */
export const startSuiteRun = async (
  api: Api,
  tenant: SuiteTenant,
  body: { calls?: number; runs_per_combination?: number },
): Promise<StartedRun> => {
  const run = await api.call('POST', `/api/v1/evaluator-suites/${tenant.suiteId}/runs`, tenant.token, body);
  return { id: run.id, tenant, at: Date.now() };
};

/** Cancels a run, unless it already finished. */
export const cancelSuiteRun = (api: Api, run: StartedRun) =>
  api.call('POST', `/api/v1/suite-runs/${run.id}/cancel`, run.tenant.token, {}).catch(() => undefined);

/** Every call of a run, page by page. */
export const readCalls = async (api: Api, run: StartedRun): Promise<ReadCall[]> => {
  const calls: ReadCall[] = [];
  for (let page = 1; ; page++) {
    const path = `/api/v1/suite-runs/${run.id}/calls?page=${page}&page_size=100`;
    const reply = await api.call('GET', path, run.tenant.token);
    calls.push(...reply.items);
    if (calls.length >= reply.total || reply.items.length === 0) return calls;
  }
};
