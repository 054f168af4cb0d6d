import { z } from 'zod';
import { DATA_NOT_INSTRUCTIONS, delimit, type PromptTemplate } from './prompt-template.js';

/** Kinds of root cause a cluster is labelled with (`gap_label`). */
export const GAP_LABELS = [
  'LOGIC_GAP',
  'KNOWLEDGE_GAP',
  'INSTRUCTION_GAP',
  'TOOL_GAP',
  'SPEECH_GAP',
  'POLICY_GAP',
  'OTHER',
] as const;

/** One named group of failures sharing a root cause. */
export const FailureClusterSchema = z.object({
  label: z.string(),
  gap_label: z.enum(GAP_LABELS),
  observation: z.string(),
  failure_reason: z.string(),
  /** The part of the agent's prompt or setup to change, e.g. "Booking confirmation step". */
  prompt_area: z.string(),
  /** Ids of the flagged items in this cluster; each item is in at most one cluster. */
  member_ids: z.array(z.string()),
});

/** The reply: an overview and the clusters of one metric's flagged calls. */
export const ClusterAnalysisSchema = z.object({
  overview: z.string(),
  clusters: z.array(FailureClusterSchema),
});
export type ClusterAnalysis = z.infer<typeof ClusterAnalysisSchema>;

/** One flagged evaluation row. */
export interface FlaggedItem {
  id: string;
  /** The judge's rationale for flagging it. */
  rationale: string;
  quote?: string | null;
}

/** Variables of {@link clusterRcaV1}. */
export interface ClusterRcaVars {
  metricName: string;
  metricDescription: string;
  items: readonly FlaggedItem[];
  /** @default 6 */
  maxClusters?: number;
}

/** Groups one metric's flagged calls by root cause and names each group. */
export const clusterRcaV1: PromptTemplate<ClusterRcaVars, ClusterAnalysis> = {
  id: 'cluster_rca',
  version: 1,
  schemaName: 'cluster_analysis',
  schema: ClusterAnalysisSchema,
  system: [
    'You analyse why a voice agent failed a quality metric across many calls. Group the flagged',
    'calls by shared root cause, not by surface wording, and name each group so an engineer knows',
    'what to fix in the agent.',
    'gap_label: LOGIC_GAP (wrong reasoning or flow), KNOWLEDGE_GAP (missing or wrong facts),',
    'INSTRUCTION_GAP (the prompt does not say what to do), TOOL_GAP (a tool or integration failed),',
    'SPEECH_GAP (mishearing, interruptions, latency), POLICY_GAP (broke a rule it was given), OTHER.',
    'label: at most six words. observation: what happens in the calls. failure_reason: why.',
    'Use only the ids given; put each id in at most one cluster; leave out items that fit no pattern.',
    DATA_NOT_INSTRUCTIONS,
  ].join('\n'),
  render: ({ metricName, metricDescription, items, maxClusters }) =>
    [
      `Metric: ${metricName}`,
      delimit('metric_description', metricDescription),
      `Return at most ${maxClusters ?? 6} clusters, largest first.`,
      delimit(
        'flagged_calls',
        items
          .map((item) =>
            JSON.stringify({ id: item.id, rationale: item.rationale, quote: item.quote ?? null }),
          )
          .join('\n'),
      ),
    ].join('\n\n'),
};
