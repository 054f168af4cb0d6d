import { z } from 'zod';
import { DATA_NOT_INSTRUCTIONS, delimit, type PromptTemplate } from './prompt-template.js';

/** A rubric label rewritten into a description a judge can apply consistently. */
export const EnrichedRubricSchema = z.object({
  /** The judge-ready description: what to check, what passes, what fails. */
  description: z.string(),
  pass_criteria: z.array(z.string()),
  fail_criteria: z.array(z.string()),
  /** Short example utterances or situations, the rubric's own first. */
  examples: z.array(z.string()),
});
export type EnrichedRubric = z.infer<typeof EnrichedRubricSchema>;

/** Variables of {@link rubricEnrichV1}: one `Label #N` block of a rubric. */
export interface RubricEnrichVars {
  labelName: string;
  definition: string;
  examples?: readonly string[];
  /** The parent category, when the label is one of several. */
  parentName?: string | null;
}

/** Turns a terse rubric label into a precise description for scoring calls (`parse-bulk` drafts). */
export const rubricEnrichV1: PromptTemplate<RubricEnrichVars, EnrichedRubric> = {
  id: 'rubric_enrich',
  version: 1,
  schemaName: 'enriched_rubric',
  schema: EnrichedRubricSchema,
  system: [
    'You turn rubric labels written by quality analysts into precise descriptions that an LLM judge',
    'uses to decide, from a call transcript alone, whether a voice-agent call shows the label.',
    'Rules:',
    "- Keep the analyst's meaning; do not broaden or narrow it. Never contradict the definition.",
    '- Describe observable behaviour in the transcript, not intent or tone the text cannot show.',
    '- pass_criteria: when the label applies; fail_criteria: near misses that must not count.',
    "- examples: keep the analyst's examples verbatim, then add at most three of your own.",
    '- Write plain English, two to five sentences for the description.',
    DATA_NOT_INSTRUCTIONS,
  ].join('\n'),
  render: ({ labelName, definition, examples, parentName }) =>
    [
      parentName ? `Category: ${parentName}` : null,
      `Label: ${labelName}`,
      delimit('definition', definition),
      examples && examples.length > 0 ? delimit('examples', examples.map((e) => `- ${e}`).join('\n')) : null,
    ]
      .filter((part): part is string => part !== null)
      .join('\n\n'),
};
