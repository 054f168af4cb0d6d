import { z } from 'zod';
import { qArray, Timestamp, Uuid } from '../common.js';
import { TranscriptSpeakerSchema } from './call-import-row.js';

const Count = z.number().int().min(0);
const Pct = z.number().min(0).max(100);
const ScopeString = z.string().max(200).optional();

/** Scope of a report; the same filters select a stored report and scope its generation. */
const scopeFields = {
  agent_id: ScopeString,
  /** ISO 8601 lower bound on when evaluation rows completed. */
  since: ScopeString,
  /** ISO 8601 upper bound on when evaluation rows completed. */
  until: ScopeString,
  suite_id: ScopeString,
  /** A single scenario; combined with `scenario_ids` when both are given. */
  scenario_id: ScopeString,
  /** Caller-chosen name that keeps reports with the same filters apart (one per dashboard, say). */
  scope_key: ScopeString,
  /** An evaluation id: only rows of that evaluation. */
  job_id: ScopeString,
};

export const MetricClustersQuerySchema = z.object({
  ...scopeFields,
  scenario_ids: qArray(z.string().max(200)).optional(),
});

/** Start (or restart) generation for a scope; `max_llm_calls` caps the LLM budget of the run. */
export const MetricClustersGenerateBodySchema = z.object({
  ...scopeFields,
  scenario_ids: z.array(z.string().max(200)).max(200).optional(),
  max_llm_calls: z.number().int().min(1).max(1000).optional(),
});
export type MetricClustersGenerateBody = z.infer<typeof MetricClustersGenerateBodySchema>;

/**
 * Root-cause family of a cluster: logic, missing knowledge, prompt wording, tool use, speech
 * recognition, policy, latency, or `OTHER`.
 */
export const GAP_LABELS = [
  'LOGIC_GAP',
  'KNOWLEDGE_GAP',
  'PROMPT_GAP',
  'TOOL_GAP',
  'ASR_GAP',
  'POLICY_GAP',
  'LATENCY_GAP',
  'OTHER',
] as const;
export const GapLabelSchema = z.enum(GAP_LABELS);

/** `idle`: nothing generated for the scope yet; `running` -> `completed` | `failed`. */
export const METRIC_CLUSTERS_STATUSES = ['idle', 'running', 'completed', 'failed'] as const;

/** Phases of a generation run, in order; `idle` before the first run. */
export const METRIC_CLUSTERS_PHASES = [
  'idle',
  'queued',
  'selecting_rows',
  'clustering',
  'discovering_problems',
  'summarising',
  'done',
] as const;

/** Progress of the current or last run; steps are LLM calls planned and made. */
export const MetricClustersProgressSchema = z.object({
  phase: z.enum(METRIC_CLUSTERS_PHASES),
  completed_steps: Count,
  total_steps: Count,
});

/**
 * A quote from a flagged conversation with the turns around it, and where it is: the call's row
 * (its recording), the quoted turn's index in the call's transcript (the diarised one, else the
 * speaker-labelled source transcript) and its place on the recording when the transcript is timed.
 * Reports generated before these were kept have them null.
 */
export const ClusterEvidenceSchema = z.object({
  conversation_id: z.string(),
  evaluation_row_id: Uuid,
  call_import_row_id: Uuid.nullable(),
  quote: z.string(),
  /** Null when the call has no transcript (the quote is then the judge's reason). */
  turn_index: z.number().int().min(0).nullable(),
  start_ms: z.number().int().min(0).nullable(),
  end_ms: z.number().int().min(0).nullable(),
  turns: z.array(z.object({ speaker: TranscriptSpeakerSchema, text: z.string() })),
});
export type ClusterEvidence = z.infer<typeof ClusterEvidenceSchema>;

export const SubClusterSchema = z.object({
  id: z.string(),
  label: z.string(),
  count: Count,
  share_pct: Pct,
});

/** Flagged rows of one metric sharing a root cause; `share_pct` is of the metric's flagged rows. */
export const MetricClusterSchema = z.object({
  id: z.string(),
  label: z.string(),
  gap_label: GapLabelSchema,
  /** 1 for a metric's top-level clusters, 2 for clusters found inside another. */
  level: z.number().int().min(1),
  count: Count,
  share_pct: Pct,
  sub_clusters: z.array(SubClusterSchema),
  observation: z.string(),
  failure_reason: z.string(),
  evidence: z.array(ClusterEvidenceSchema),
  is_discovered: z.boolean(),
});

export const MetricClusterGroupSchema = z.object({
  metric_id: Uuid,
  metric_name: z.string(),
  flagged_count: Count,
  failure_reason: z.string(),
  clusters: z.array(MetricClusterSchema),
});

/** A problem no metric covers, found across the flagged conversations. */
export const DiscoveredProblemSchema = z.object({
  id: z.string(),
  /**
   * The key to promote it with `POST /metrics/from-discovered` (a slug; equals `id`): rows whose
   * judge reported the problem under this key then resolve to the new metric.
   */
  key: z.string(),
  label: z.string(),
  gap_label: GapLabelSchema,
  count: Count,
  share_pct: Pct,
  observation: z.string(),
  failure_reason: z.string(),
  evidence: z.array(ClusterEvidenceSchema),
});

/** For number and rating metrics: a value is a failure when `value <operator> rule.value`. */
export const NumericRuleSchema = z.object({
  operator: z.enum(['lt', 'lte', 'gt', 'gte', 'eq']),
  value: z.number(),
});

/**
 * Which values of a metric count as failures: `failure_values` (values as strings, e.g. `false`),
 * `failure_child_names` (children of a category parent) and `numeric_rule`.
 */
export const FailurePolicySchema = z.object({
  metric_id: Uuid,
  failure_values: z.array(z.string()),
  failure_child_names: z.array(z.string()),
  numeric_rule: NumericRuleSchema.nullable(),
});
export type FailurePolicy = z.infer<typeof FailurePolicySchema>;

/** `inferred` from metric definitions, or `configured` through PUT failure-policies. */
export const FAILURE_POLICY_SOURCES = ['inferred', 'configured'] as const;

const failurePolicyFields = {
  /** Keyed by metric name. */
  failure_policies: z.record(z.string(), FailurePolicySchema),
  failure_policies_source: z.enum(FAILURE_POLICY_SOURCES),
  /** Null while the policies are inferred. */
  failure_policies_updated_at: Timestamp.nullable(),
};

/** The workspace's failure policies, as used for flagging and clustering. */
export const FailurePoliciesSchema = z.object(failurePolicyFields);
export type FailurePolicies = z.infer<typeof FailurePoliciesSchema>;

const Names = z.array(z.string().min(1).max(200)).max(200).default([]);

/** Replace the configured policies; metrics left out fall back to inferred policies. */
export const FailurePoliciesUpdateBodySchema = z.object({
  policies: z.record(
    Uuid,
    z.object({
      failure_values: Names,
      failure_child_names: Names,
      numeric_rule: NumericRuleSchema.nullable().default(null),
    }),
  ),
});
export type FailurePoliciesUpdateBody = z.input<typeof FailurePoliciesUpdateBodySchema>;

export const RcaSummarySchema = z.object({
  total_clusters: Count,
  total_clustered_instances: Count,
  total_flagged_instances: Count,
  analysed_calls: Count,
  repeated_patterns: z.array(
    z.object({
      metric_id: Uuid,
      metric_name: z.string(),
      /** Labels of the metric's largest clusters, largest first. */
      top_rca_patterns: z.array(z.string()),
      evidence_share_pct: Pct,
      evidence_calls: Count,
      evidence_cluster_count: Count,
      failure_reason: z.string(),
    }),
  ),
  metric_hotspots: z.array(
    z.object({
      metric_id: Uuid,
      metric_name: z.string(),
      description: z.string(),
      metric_rate_pct: Pct,
      flagged_calls: Count,
    }),
  ),
  prompt_areas: z.array(z.object({ label: z.string(), share_pct: Pct, gap_label: GapLabelSchema })),
});

/**
 * How the flagged rows were grouped: on `embeddings` from the organization's provider (or the
 * server default) when it offers an embeddings model, else on `words` (TF-IDF, no model).
 */
export const ClusteringMethodSchema = z.object({
  method: z.enum(['embeddings', 'words']),
  /** The provider of the embeddings model; null for `words`. */
  provider: z.string().nullable(),
  /** The embeddings model; null for `words`. */
  model: z.string().nullable(),
});

/** What a report covers; unset filters are null. */
export const GenerationScopeSchema = z.object({
  agent_id: Uuid.nullable(),
  agent_name: z.string().nullable(),
  scenario_ids: z.array(z.string()),
  scenario_names: z.array(z.string()),
  since: Timestamp.nullable(),
  until: Timestamp.nullable(),
  eligible_call_count: Count,
  selected_call_count: Count,
});

/**
 * Failure clusters of flagged evaluation rows per metric, with root-cause analysis. Before the
 * first run `status` is `idle`, generation fields are null, `overview` is empty and lists are empty.
 */
export const MetricClustersReportSchema = z.object({
  status: z.enum(METRIC_CLUSTERS_STATUSES),
  overview: z.string(),
  generated_at: Timestamp.nullable(),
  /** Completed evaluation rows in scope when the report was generated. */
  generated_at_completed_rows: Count.nullable(),
  progress: MetricClustersProgressSchema,
  provider: z.string().nullable(),
  model: z.string().nullable(),
  llm_calls_used: Count,
  max_llm_calls: Count,
  error_message: z.string().nullable(),
  /** True when rows completed or policies changed since generation. */
  is_stale: z.boolean(),
  selected_evaluation_row_ids: z.array(z.string()),
  ...failurePolicyFields,
  groups: z.array(MetricClusterGroupSchema),
  discovered_problems: z.array(DiscoveredProblemSchema),
  rca_summary: RcaSummarySchema,
  generation_scope: GenerationScopeSchema,
  /** How the last run grouped rows; `words` before the first run. */
  clustering: ClusteringMethodSchema,
});
export type MetricClustersReport = z.infer<typeof MetricClustersReportSchema>;
