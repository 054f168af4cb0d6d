import { setPlan } from '../../src/commands/set-plan.js';
import { makeAgent, makeMetric, makePersona, makeScenario, unique } from '../sdk-e2e/fixtures.js';
import type { Drive } from './drive.js';

/** A WAV header and silence: enough for the upload's file-type check. */
const wav = () => {
  const bytes = Buffer.alloc(1024);
  bytes.write('RIFF', 0);
  bytes.writeUInt32LE(1016, 4);
  bytes.write('WAVEfmt ', 8);
  return new Uint8Array(bytes);
};

/** Agents (with a connection to the LLM double), scenarios and personas with ambient audio. */
export const driveCast = async ({ h, client, double }: Drive) => {
  const agent = await makeAgent(client, {
    connection: { kind: 'openai_chat', base_url: double.url, model: 'gpt-4o-mini' },
  });
  await client.agents.get(agent.id);
  await client.agents.update(agent.id, { description: 'Books appointments' });
  await client.agents.list({ page_size: 5 });
  await client.agents.test(agent.id);
  await client.agents.delete((await makeAgent(client)).id);

  const scenario = await makeScenario(client);
  await client.scenarios.get(scenario.id);
  await client.scenarios.update(scenario.id, { description: 'The caller asks to reschedule.' });
  await client.scenarios.list();
  await client.scenarios.delete((await makeScenario(client)).id);

  const persona = await makePersona(client);
  await client.personas.get(persona.id);
  await client.personas.update(persona.id, { description: 'In a hurry' });
  await client.personas.list({ is_custom: true });
  await setPlan(h.db, h.organizationId, 'enterprise');
  h.server.deps.authCache.clear();
  await client.personas.uploadAmbientAudio(persona.id, { data: wav(), filename: 'noise.wav' });
  await client.personas.deleteAmbientAudio(persona.id);
  await client.personas.delete((await makePersona(client)).id);
  return { agent, scenario, persona };
};

/** Evaluators, suites and a suite run: started, listed, compared (409 while it runs), cancelled. */
export const driveSuites = async (drive: Drive) => {
  const { client, double } = drive;
  const { agent, scenario, persona } = await driveCast(drive);
  const ids = { agent_id: agent.id, scenario_id: scenario.id };
  const evaluator = await client.evaluators.create({ ...ids, persona_id: persona.id });
  await client.evaluators.get(evaluator.id);
  await client.evaluators.update(evaluator.id, { name: unique('Evaluator') });
  await client.evaluators.list({ agent_id: agent.id });
  await client.evaluators.bulk({ ...ids, persona_ids: [persona.id] });
  await client.evaluators.delete(evaluator.id);

  const metric = await makeMetric(client, { metric_type: 'boolean' });
  const suite = await client.evaluatorSuites.create({
    name: unique('Suite'),
    agent_id: agent.id,
    persona_ids: [persona.id],
    scenario_ids: [scenario.id],
    metric_ids: [metric.id],
  });
  await client.evaluatorSuites.get(suite.id);
  await client.evaluatorSuites.update(suite.id, { name: unique('Nightly') });
  await client.evaluatorSuites.list();

  // a slow agent keeps the run going until it is cancelled
  double.setLatency(3_000);
  const run = await client.suiteRuns.create(suite.id);
  await client.suiteRuns.get(run.id);
  await client.suiteRuns.list({ suite_id: suite.id });
  const [call] = (await client.suiteRuns.listCalls(run.id)).items;
  await client.suiteRuns.getCall(run.id, call!.id);
  await client.suiteRuns.compare(run.id).catch(() => undefined);
  await client.suiteRuns.cancel(run.id);
  double.setLatency(0);

  const spare = await client.evaluatorSuites.create({
    name: unique('Spare'),
    agent_id: agent.id,
    persona_ids: [persona.id],
    scenario_ids: [scenario.id],
  });
  await client.evaluatorSuites.delete(spare.id);
};
