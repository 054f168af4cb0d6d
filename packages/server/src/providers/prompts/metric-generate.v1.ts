import { z } from 'zod';
import { DATA_NOT_INSTRUCTIONS, delimit, type PromptTemplate } from './prompt-template.js';

/** Metric types the judge can score; the same values as the contract's `METRIC_TYPES`. */
export const PROMPT_METRIC_TYPES = ['boolean', 'rating', 'number', 'category'] as const;

/** A metric definition suggested from a description (`POST /metrics/generate`); nothing is persisted. */
export const MetricSuggestionSchema = z.object({
  name: z.string(),
  description: z.string(),
  metric_type: z.enum(PROMPT_METRIC_TYPES),
  custom_data_type: z.enum(['boolean', 'integer', 'number', 'string']),
  custom_config: z.object({
    /** Lowest score of a rating or number metric. */
    min: z.number().nullable(),
    /** Highest score of a rating or number metric. */
    max: z.number().nullable(),
    /** Allowed labels of a category metric. */
    labels: z.array(z.string()),
  }),
  suggested_tags: z.array(z.string()),
});
export type MetricSuggestion = z.infer<typeof MetricSuggestionSchema>;

/** Variables of {@link metricGenerateV1}. */
export interface MetricGenerateVars {
  /** What the user wants measured, in their words. */
  description: string;
  /** Names already used in the workspace, to avoid duplicates. */
  existingNames?: readonly string[];
}

/** Suggests a metric definition for evaluating voice-agent calls from a free-text description. */
export const metricGenerateV1: PromptTemplate<MetricGenerateVars, MetricSuggestion> = {
  id: 'metric_generate',
  version: 1,
  schemaName: 'metric_suggestion',
  schema: MetricSuggestionSchema,
  system: [
    'You design metrics that an LLM judge uses to score transcripts of calls handled by voice agents.',
    "From the user's description, write one metric:",
    '- name: short, specific, in sentence case (for example "Confirms appointment time").',
    '- description: what the judge checks, what passes and what fails, observable in a transcript.',
    '- metric_type: boolean for yes/no checks; rating for a quality scale (custom_config min 1, max 5);',
    '  number for counts or measures (min/max when bounded); category for picking labels (list them in',
    '  custom_config.labels).',
    '- custom_data_type: boolean for boolean, integer for rating, number for number, string for category.',
    '- custom_config: min and max null unless rating or number; labels empty unless category.',
    '- suggested_tags: two to four lower-case tags such as "compliance", "empathy", "booking".',
    DATA_NOT_INSTRUCTIONS,
  ].join('\n'),
  render: ({ description, existingNames }) =>
    [
      'Suggest a metric for this description:',
      delimit('description', description),
      existingNames && existingNames.length > 0
        ? `Do not reuse these existing names: ${existingNames.map((name) => JSON.stringify(name)).join(', ')}.`
        : null,
    ]
      .filter((part): part is string => part !== null)
      .join('\n\n'),
};
