import type { CallImport, Metric, VoiceEval } from '@voice-eval/sdk';

/**
 * Factories for the SDK end-to-end tests: resources made through the SDK, as a user would, with
 * names no other test uses.
 */

let seq = 0;

/** `label` plus a suffix unique in this process. */
export const unique = (label: string) => `${label} ${++seq}-${Math.random().toString(36).slice(2, 6)}`;

/** Every field a cascaded (`stt_llm_tts`) voice bundle needs. */
export const CASCADED = {
  bundle_type: 'stt_llm_tts',
  stt_provider: 'openai',
  stt_model: 'whisper-1',
  llm_provider: 'openai',
  llm_model: 'gpt-4o-mini',
  tts_provider: 'elevenlabs',
  tts_model: 'eleven_turbo_v2',
} as const;

export const makeAgent = (
  client: VoiceEval,
  overrides: Partial<Parameters<VoiceEval['agents']['create']>[0]> = {},
) =>
  client.agents.create({ name: unique('Agent'), call_type: 'inbound', call_medium: 'phone', ...overrides });

export const makeScenario = (
  client: VoiceEval,
  overrides: Partial<Parameters<VoiceEval['scenarios']['create']>[0]> = {},
) =>
  client.scenarios.create({
    name: unique('Scenario'),
    description: 'The caller asks for a refund.',
    ...overrides,
  });

export const makePersona = (
  client: VoiceEval,
  overrides: Partial<Parameters<VoiceEval['personas']['create']>[0]> = {},
) =>
  client.personas.create({
    name: unique('Persona'),
    tts_provider: 'cartesia',
    tts_voice_id: 'v1',
    ...overrides,
  });

export const makeMetric = (
  client: VoiceEval,
  overrides: Partial<Parameters<VoiceEval['metrics']['create']>[0]> = {},
) => client.metrics.create({ name: unique('Metric'), ...overrides });

/** A call-import schema with a conversation id and a transcript column. */
export const makeSchema = (client: VoiceEval) =>
  client.callImportSchemas.create({
    name: unique('Calls'),
    parameters: [
      { name: 'conversation_id', type: 'conversation_id', is_required: true },
      { name: 'transcript', type: 'transcript' },
    ],
  });

const cell = (value: string) => `"${value.replaceAll('"', '""')}"`;

/** Imports calls with transcripts (a CSV upload through the SDK); `null` leaves a call without one. */
export const importCalls = async (
  client: VoiceEval,
  calls: ReadonlyArray<{ id: string; transcript: string | null }>,
  schemaId?: string,
): Promise<CallImport> => {
  const csv = [
    'conversation_id,transcript',
    ...calls.map((c) => `${cell(c.id)},${cell(c.transcript ?? '')}`),
  ];
  return client.callImports.create({
    file: { data: new TextEncoder().encode(csv.join('\n')), filename: 'calls.csv' },
    schema_id: schemaId ?? (await makeSchema(client)).id,
  });
};

/** `n` calls whose transcripts carry `row=<id>`. */
export const transcripts = (n: number, prefix = 'call') =>
  Array.from({ length: n }, (_, i) => ({
    id: `${prefix}-${i + 1}`,
    transcript: `Agent: Hello, how can I help? Caller: I need a refund. row=${prefix}-${i + 1}`,
  }));

/** The ids of metrics, in the order given. */
export const idsOf = (items: ReadonlyArray<Pick<Metric, 'id'>>) => items.map((i) => i.id);
