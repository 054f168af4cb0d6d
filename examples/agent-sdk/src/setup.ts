import type { CallImportSchema, Metric, VoiceEval } from '@voice-eval/sdk';

/** The category metric the agent scores every call with; its labels are child metrics. */
export const CALL_OUTCOME = {
  name: 'Call outcome',
  description: 'How the call ended for the caller.',
  labels: ['Resolved', 'Not resolved', 'Escalated'],
} as const;

/** The yes/no metric the agent scores every call with. */
export const IDENTITY_CHECK = {
  name: 'Verified caller identity',
  description: 'Passes when the agent confirmed who the caller is before discussing the account.',
} as const;

/** The call-import schema name, and the CSV column that feeds each of its parameters. */
export const CALLS_SCHEMA = {
  name: 'Recorded support calls',
  columns: {
    conversation_id: 'Call ID',
    agent: 'Agent',
    recording: 'Recording URL',
    transcript: 'Transcript',
  },
} as const;

/** The metrics an evaluation of calls uses. */
export interface CallMetrics {
  /** The category parent, its labels inlined as `children`. */
  outcome: Metric;
  identity: Metric;
}

/** The active top-level metric named `name`, if the workspace has one. */
const findMetric = async (client: VoiceEval, name: string): Promise<Metric | undefined> => {
  for await (const metric of client.metrics.list({ q: name, page_size: 100 })) {
    if (metric.name === name && metric.parent_metric_id === null) return metric;
  }
  return undefined;
};

/**
 * Finds or creates the call metrics: a category parent with one child per label, and a boolean.
 * Safe to run again: existing metrics (and labels) are reused, missing labels are added.
 */
export async function ensureCallMetrics(client: VoiceEval): Promise<CallMetrics> {
  const parent =
    (await findMetric(client, CALL_OUTCOME.name)) ??
    (await client.metrics.create({
      name: CALL_OUTCOME.name,
      description: CALL_OUTCOME.description,
      metric_type: 'category',
      selection_mode: 'single_choice',
      capture_rationale: true,
    }));
  const existing = new Set(parent.children.map((child) => child.name));
  for (const label of CALL_OUTCOME.labels.filter((l) => !existing.has(l))) {
    await client.metrics.create({ name: label, parent_metric_id: parent.id });
  }
  const identity =
    (await findMetric(client, IDENTITY_CHECK.name)) ??
    (await client.metrics.create({
      name: IDENTITY_CHECK.name,
      description: IDENTITY_CHECK.description,
      metric_type: 'boolean',
    }));
  return { outcome: await client.metrics.get(parent.id), identity };
}

/** Finds or creates the call-import schema that reads the agent's CSV files. */
export async function ensureCallsSchema(client: VoiceEval): Promise<CallImportSchema> {
  for await (const schema of client.callImportSchemas.list({ q: CALLS_SCHEMA.name })) {
    if (schema.name === CALLS_SCHEMA.name) return schema;
  }
  return client.callImportSchemas.create({
    name: CALLS_SCHEMA.name,
    parameters: [
      { name: 'conversation_id', type: 'conversation_id', is_required: true },
      { name: 'agent', type: 'string' },
      { name: 'recording', type: 'recording_url' },
      { name: 'transcript', type: 'transcript' },
    ],
  });
}
