import type { VoiceEval } from '@voice-eval/sdk';
import { CLINIC_CHECKS, type ClinicCheck } from './clinic-judge.js';
import type { DemoDoubles } from './doubles.js';

/**
 * What the demo puts in its organization, through the API as a user would: the doubles as the
 * AI provider, the clinic agent over text and over voice, a caller, three scenarios, the metrics
 * and a suite per channel. Each is found by name and brought up to date when it exists (the
 * doubles listen on new ports every start), so seeding the same organization again adds nothing.
 */

/** The suites to run and which judged metric is which check. */
export type DemoSeed = {
  textSuiteId: string;
  voiceSuiteId: string;
  checks: ReadonlyMap<string, ClinicCheck>;
};

type Named = { id: string; name: string };

/** The item of `items` called `name`, updated with `update`, or else made with `create`. */
const upsert = async <T extends Named>(
  items: AsyncIterable<T>,
  name: string,
  create: () => Promise<T>,
  update: (id: string) => Promise<T>,
): Promise<T> => {
  for await (const item of items) if (item.name === name) return update(item.id);
  return create();
};

const SCENARIOS = [
  {
    name: 'Book a general checkup',
    description: 'The caller books a general checkup.',
    required_info: { name: 'Ada Lovelace', date: 'March 3', service: 'general checkup' },
  },
  {
    name: 'Ask the price of a dental cleaning',
    description: 'The caller books a dental cleaning, then asks how much it costs.',
    required_info: { name: 'Grace Hopper', date: 'April 12', service: 'dental cleaning' },
  },
  {
    name: 'Book a flu shot',
    description: 'The caller books a flu shot.',
    required_info: { name: 'Alan Turing', date: 'May 5', service: 'flu shot' },
  },
] as const;

/** Measured from the call's audio, so only voice runs score it. */
const LATENCY_METRIC = {
  name: 'Answers within 500 ms',
  description: 'The 95th percentile of the time from the end of a caller turn to the agent speaking.',
  metric_type: 'number',
  capture_rationale: true,
  custom_config: { voice_measure: 'agent_latency_p95_ms', threshold: { operator: 'gt', value: 500 } },
} as const;

const seedProvider = (client: VoiceEval, doubles: DemoDoubles) => {
  const body = {
    endpoint_url: doubles.providerUrl,
    api_key: 'sk-demo-loopback-double',
    // chat (the caller and the judge), speech to text and text to speech, all at the one URL
    enabled_models: ['clinic-caller-and-judge', 'whisper-1', 'tts-1'],
    is_active: true,
    is_default: true,
  };
  const name = 'Demo doubles (loopback)';
  return upsert(
    client.aiProviders.list(),
    name,
    () => client.aiProviders.create({ provider: 'openai_compatible', name, ...body }),
    (id) => client.aiProviders.update(id, body),
  );
};

const seedAgents = async (client: VoiceEval, doubles: DemoDoubles) => {
  const agent = (name: string, description: string, connection: Record<string, unknown>) => {
    const body = { description, call_type: 'inbound', call_medium: 'phone', connection } as const;
    return upsert(
      client.agents.list(),
      name,
      () => client.agents.create({ name, ...body } as Parameters<VoiceEval['agents']['create']>[0]),
      (id) => client.agents.update(id, body as Parameters<VoiceEval['agents']['update']>[1]),
    );
  };
  const text = await agent(
    'Riverside Clinic (text)',
    'The scripted clinic-booking agent behind an OpenAI-compatible chat endpoint.',
    { kind: 'openai_chat', base_url: doubles.textAgentUrl, model: 'clinic-agent' },
  );
  const voice = await agent(
    'Riverside Clinic (voice)',
    'The same agent over a Twilio Media Stream: it hears through a VAD and answers in speech.',
    { kind: 'twilio_media_stream', url: doubles.voiceAgentUrl, custom_parameters: { tenant: 'riverside' } },
  );
  return { text, voice };
};

const seedCaller = (client: VoiceEval) => {
  const body = {
    gender: 'female',
    description: 'A patient who wants an appointment and answers what the agent asks.',
    tts_provider: 'openai',
    tts_voice_id: 'alloy',
    response_delay_ms: 300,
    max_turns: 12,
    allow_interruptions: false,
  } as const;
  const name = 'Patient booking a visit';
  return upsert(
    client.personas.list({ is_custom: true }),
    name,
    () => client.personas.create({ name, ...body }),
    (id) => client.personas.update(id, body),
  );
};

const seedScenarios = async (client: VoiceEval) => {
  const scenarios = [];
  for (const { name, ...body } of SCENARIOS) {
    scenarios.push(
      await upsert(
        client.scenarios.list(),
        name,
        () => client.scenarios.create({ name, ...body }),
        (id) => client.scenarios.update(id, body),
      ),
    );
  }
  return scenarios;
};

const seedMetrics = async (client: VoiceEval) => {
  const checks = new Map<string, ClinicCheck>();
  for (const check of CLINIC_CHECKS) {
    const body = { description: check.description, metric_type: 'boolean', capture_rationale: true } as const;
    const metric = await upsert(
      client.metrics.list(),
      check.name,
      () => client.metrics.create({ name: check.name, ...body }),
      (id) => client.metrics.update(id, body),
    );
    checks.set(metric.id, check);
  }
  const { name, ...body } = LATENCY_METRIC;
  const latency = await upsert(
    client.metrics.list(),
    name,
    () => client.metrics.create({ name, ...body }),
    (id) => client.metrics.update(id, body),
  );
  return { checks, latencyId: latency.id };
};

/** Seeds the demo organization (see the file comment) and answers the suites to run. */
export const seedDemo = async (client: VoiceEval, doubles: DemoDoubles): Promise<DemoSeed> => {
  await seedProvider(client, doubles);
  const agents = await seedAgents(client, doubles);
  const caller = await seedCaller(client);
  const scenarios = await seedScenarios(client);
  const { checks, latencyId } = await seedMetrics(client);
  const suite = (name: string, agentId: string, scenarioIds: string[], metricIds: string[], runs: number) => {
    const body = {
      agent_id: agentId,
      persona_ids: [caller.id],
      scenario_ids: scenarioIds,
      metric_ids: metricIds,
      default_runs_per_combination: runs,
    };
    return upsert(
      client.evaluatorSuites.list(),
      name,
      () => client.evaluatorSuites.create({ name, ...body }),
      (id) => client.evaluatorSuites.update(id, body),
    );
  };
  const judged = [...checks.keys()];
  const text = await suite(
    'Clinic bookings (text)',
    agents.text.id,
    scenarios.map((s) => s.id),
    judged,
    2,
  );
  // voice calls run in real time: two of them, one of which asks a price
  const voice = await suite(
    'Clinic bookings (voice)',
    agents.voice.id,
    scenarios.slice(0, 2).map((s) => s.id),
    [...judged, latencyId],
    1,
  );
  return { textSuiteId: text.id, voiceSuiteId: voice.id, checks };
};
