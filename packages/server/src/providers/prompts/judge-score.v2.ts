import { z } from 'zod';
import { PROMPT_METRIC_TYPES } from './metric-generate.v1.js';
import {
  DATA_NOT_INSTRUCTIONS,
  delimit,
  formatTurns,
  type PromptTemplate,
  type PromptTurn,
} from './prompt-template.js';

/** A verbatim quote the judge relies on, with the number of its turn as the prompt numbers them (from 1). */
export const CitedQuoteSchema = z.object({
  quote: z.string(),
  turn: z.number().int(),
});
export type CitedQuote = z.infer<typeof CitedQuoteSchema>;

/** One metric's score: the value's shape follows the metric type (see the system prompt). */
export const MetricScoreSchema = z.object({
  key: z.string(),
  value: z.union([z.boolean(), z.number(), z.string(), z.array(z.string()), z.null()]),
  rationale: z.string(),
  /** The quotes the score relies on, each with its turn; empty when the evidence is an absence. */
  evidence: z.array(CitedQuoteSchema),
});

/** A problem the judge noticed that no given metric covers (for `from-discovered`). */
export const DiscoveredMetricSchema = z.object({
  /** snake_case slug of the name. */
  key: z.string(),
  name: z.string(),
  metric_type: z.enum(PROMPT_METRIC_TYPES),
  observation: z.string(),
  evidence: z.string().nullable(),
});

/** The judge's reply: one score per metric, plus discovered problems when asked. */
export const JudgeScoresSchema = z.object({
  scores: z.array(MetricScoreSchema),
  discovered: z.array(DiscoveredMetricSchema),
});
export type JudgeScores = z.infer<typeof JudgeScoresSchema>;

/** A metric as the judge sees it. */
export interface JudgeMetric {
  /** Echoed back in `scores[].key`: a metric id or slug. */
  key: string;
  name: string;
  description: string;
  metric_type: (typeof PROMPT_METRIC_TYPES)[number];
  /** Labels of a category metric. */
  labels?: readonly string[];
  /** multi_label categories take several labels. */
  selection_mode?: 'single_choice' | 'multi_label' | null;
  min?: number | null;
  max?: number | null;
}

/** Variables of {@link judgeScoreV2}. */
export interface JudgeScoreVars {
  turns: readonly PromptTurn[];
  metrics: readonly JudgeMetric[];
  /** Ask for problems no metric covers. */
  allowDiscovery: boolean;
  /** What the agent is meant to do (its instructions or scenario), when known. */
  context?: string | null;
}

function describeMetric(metric: JudgeMetric): string {
  const range =
    metric.min != null || metric.max != null ? ` from ${metric.min ?? '-inf'} to ${metric.max ?? 'inf'}` : '';
  const labels = metric.labels?.length
    ? ` labels: ${metric.labels.map((l) => JSON.stringify(l)).join(', ')}`
    : '';
  const mode = metric.metric_type === 'category' ? ` (${metric.selection_mode ?? 'single_choice'})` : '';
  return `- key ${JSON.stringify(metric.key)}: ${metric.name} [${metric.metric_type}${mode}${range}${labels}]\n  ${metric.description}`;
}

/** Scores a call transcript against metrics as an LLM judge. */
export const judgeScoreV2: PromptTemplate<JudgeScoreVars, JudgeScores> = {
  id: 'judge_score',
  version: 2,
  schemaName: 'judge_scores',
  schema: JudgeScoresSchema,
  system: [
    'You are a strict, consistent evaluator of calls handled by voice agents. You score one',
    'transcript against each metric given, using only what the transcript shows.',
    'Values by metric type: boolean -> true or false; rating -> an integer within its range;',
    'number -> a number within its range; category single_choice -> exactly one of its labels;',
    'category multi_label -> an array of its labels (possibly empty).',
    'Use null only when the metric cannot apply to this call, and say why in the rationale.',
    'Return exactly one score per metric, with its key unchanged, a one- or two-sentence rationale,',
    'and as evidence the short verbatim quotes from the transcript the score relies on, at most three,',
    'each with the number of its turn (an empty list when the evidence is an absence).',
    'When asked for discoveries, list at most three clear failures no metric covers; else none.',
    DATA_NOT_INSTRUCTIONS,
  ].join('\n'),
  render: ({ turns, metrics, allowDiscovery, context }) =>
    [
      context ? `What the agent is meant to do:\n${delimit('context', context)}` : null,
      `Metrics:\n${metrics.map(describeMetric).join('\n')}`,
      delimit('transcript', formatTurns(turns)),
      allowDiscovery ? 'Also report discovered problems.' : 'Return an empty discovered list.',
    ]
      .filter((part): part is string => part !== null)
      .join('\n\n'),
};
