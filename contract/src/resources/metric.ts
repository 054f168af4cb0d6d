import { z } from 'zod';
import { JsonObject, Timestamp, Uuid } from '../common.js';

export const METRIC_TYPES = ['boolean', 'rating', 'number', 'category'] as const;
export const MetricTypeSchema = z.enum(METRIC_TYPES);

export const METRIC_SCOPES = ['workspace', 'organization'] as const;
export const MetricScopeSchema = z.enum(METRIC_SCOPES);

export const SELECTION_MODES = ['single_choice', 'multi_label'] as const;
export const SelectionModeSchema = z.enum(SELECTION_MODES);

/** `active` metrics are used by evaluations; `draft` ones (Metrics Studio) are hidden from them. */
export const METRIC_LIFECYCLES = ['active', 'draft'] as const;
export const MetricLifecycleSchema = z.enum(METRIC_LIFECYCLES);

const metricFields = {
  id: Uuid,
  organization_id: Uuid,
  workspace_id: Uuid.nullable(),
  scope: MetricScopeSchema,
  name: z.string(),
  description: z.string(),
  example: z.string(),
  metric_type: MetricTypeSchema,
  metric_category: z.string(),
  trigger: z.string(),
  enabled: z.boolean(),
  is_default: z.boolean(),
  metric_origin: z.string(),
  supported_surfaces: z.array(z.string()),
  enabled_surfaces: z.array(z.string()),
  custom_data_type: z.string(),
  custom_config: JsonObject,
  tags: z.array(z.string()),
  capture_rationale: z.boolean(),
  parent_metric_id: Uuid.nullable(),
  selection_mode: SelectionModeSchema.nullable(),
  allow_discovery: z.boolean(),
  compare_transcripts: z.boolean(),
  lifecycle: MetricLifecycleSchema,
  /**
   * The number of the metric's current version (see `GET /metrics/{id}/versions`). A change to
   * what it judges makes the next one; a child shares its parent's.
   */
  version: z.number().int().min(1),
  promoted_from_draft_at: Timestamp.nullable(),
  studio_notes: z.string(),
  created_at: Timestamp,
  updated_at: Timestamp,
  created_by: z.string(),
};

/** A child sub-metric: a metric of depth 2, whose `children` is always empty. */
export const ChildMetricSchema = z.object({ ...metricFields, children: z.array(z.never()).max(0) });

/** A metric; parents carry their children inlined, in a stable order (name, then id). */
export const MetricSchema = z.object({ ...metricFields, children: z.array(ChildMetricSchema) });
export type Metric = z.infer<typeof MetricSchema>;

const NAME = z.string().trim().min(1).max(200);

/** Fields a caller may set on create or update. */
const writableFields = {
  description: z.string().max(10_000),
  example: z.string().max(10_000),
  metric_type: MetricTypeSchema,
  metric_category: z.string().max(100),
  trigger: z.string().max(100),
  enabled: z.boolean(),
  is_default: z.boolean(),
  metric_origin: z.string().max(100),
  supported_surfaces: z.array(z.string().max(100)).max(50),
  enabled_surfaces: z.array(z.string().max(100)).max(50),
  custom_data_type: z.string().max(100),
  custom_config: JsonObject,
  tags: z.array(z.string().min(1).max(100)).max(50),
  capture_rationale: z.boolean(),
  selection_mode: SelectionModeSchema.nullable(),
  allow_discovery: z.boolean(),
  compare_transcripts: z.boolean(),
  studio_notes: z.string().max(10_000),
};

/**
 * What a metric judges, as one version froze it: the fields the judge is given (and a category's
 * labels, its children). A change to any of them makes a new version; a rename, tags, surfaces or
 * notes do not.
 */
export const MetricDefinitionSchema = z.object({
  description: z.string(),
  example: z.string(),
  metric_type: MetricTypeSchema,
  custom_data_type: z.string(),
  custom_config: JsonObject,
  selection_mode: SelectionModeSchema.nullable(),
  children: z.array(z.object({ id: Uuid, name: z.string(), description: z.string(), example: z.string() })),
});
export type MetricDefinition = z.infer<typeof MetricDefinitionSchema>;

/**
 * `active`: the version evaluations score with now; `draft`: a proposed version not yet promoted
 * (drafted beside an active metric's version, or the current version of a draft metric);
 * `superseded`: an earlier version, kept as it was.
 */
export const METRIC_VERSION_STATUSES = ['active', 'draft', 'superseded'] as const;

/** One immutable version of a metric: its number, what it judged, who made it and when. */
export const MetricVersionSchema = z.object({
  metric_id: Uuid,
  version: z.number().int().min(1),
  status: z.enum(METRIC_VERSION_STATUSES),
  definition: MetricDefinitionSchema,
  /** The version a draft was drafted from; it can be promoted only while the metric is at it. */
  based_on: z.number().int().nullable(),
  created_at: Timestamp,
  created_by: z.string(),
});
export type MetricVersion = z.infer<typeof MetricVersionSchema>;

const WORDING = z.string().max(10_000);

/**
 * A draft version of an active metric: new words for its judge (its description and example, and
 * its children's), tried against people's labels before it is promoted. Unnamed fields keep the
 * active version's words. Its type, scale and labels are not drafted: people's labels are typed by
 * them, so changing those is an edit, which makes the next active version at once.
 */
export const MetricVersionDraftBodySchema = z
  .object({
    description: WORDING,
    example: WORDING,
    children: z
      .array(z.object({ id: Uuid, description: WORDING.optional(), example: WORDING.optional() }))
      .max(100),
  })
  .partial()
  .refine((body) => Object.keys(body).length > 0, {
    message: 'Name at least one of description, example, children',
  });
export type MetricVersionDraftBody = z.input<typeof MetricVersionDraftBodySchema>;

/** Score a version on the labelled calls: the judge to use (as for an evaluation). */
export const MetricVersionScoreBodySchema = z.object({
  ai_provider_id: Uuid.optional(),
  model: z.string().trim().min(1).max(200).optional(),
});
export type MetricVersionScoreBody = z.input<typeof MetricVersionScoreBodySchema>;

export const MetricCreateBodySchema = z
  .object({
    name: NAME,
    scope: MetricScopeSchema,
    parent_metric_id: Uuid.nullable(),
    ...writableFields,
  })
  .partial()
  .required({ name: true });
export type MetricCreateBody = z.infer<typeof MetricCreateBodySchema>;

export const MetricDraftBodySchema = MetricCreateBodySchema;
export type MetricDraftBody = z.infer<typeof MetricDraftBodySchema>;

/** Update: every writable field optional; `scope` and `parent_metric_id` are fixed at creation. */
export const MetricUpdateBodySchema = z.object({ name: NAME, ...writableFields }).partial();
export type MetricUpdateBody = z.infer<typeof MetricUpdateBodySchema>;

export const MetricListQuerySchema = z.object({
  scope: MetricScopeSchema.optional(),
  lifecycle: MetricLifecycleSchema.optional(),
  parent_metric_id: Uuid.optional(),
  tag: z.string().optional(),
  q: z.string().max(200).optional(),
});

export const FromDiscoveredBodySchema = z.object({
  key: z.string().trim().min(1).max(200),
  name: NAME,
  metric_type: z.enum(['boolean', 'rating', 'category']),
});

export const METRIC_GENERATE_MODES = ['description', 'transcript'] as const;

export const MetricGenerateBodySchema = z.object({
  mode: z.enum(METRIC_GENERATE_MODES),
  /** What the metric should measure (mode `description`), or a transcript excerpt (mode `transcript`). */
  input: z.string().trim().min(1).max(20_000).optional(),
  metric_type: MetricTypeSchema.optional(),
  ai_provider_id: Uuid.optional(),
  model: z.string().optional(),
});

export const MetricSuggestionSchema = z.object({
  name: z.string(),
  description: z.string(),
  metric_type: MetricTypeSchema,
  custom_data_type: z.string(),
  custom_config: JsonObject,
  supported_surfaces: z.array(z.string()),
  enabled_surfaces: z.array(z.string()),
  suggested_tags: z.array(z.string()),
  provider: z.string(),
  model: z.string(),
});

export const ParseBulkBodySchema = z.object({
  prompt: z.string().min(1).max(200_000),
  /** When set, the parsed labels become children of a parent category of this name. */
  parent_name: z.string().trim().min(1).max(200).optional(),
  parent_description: z.string().max(10_000).optional(),
  selection_mode: SelectionModeSchema.optional(),
  /** Ask the model to rewrite each label's definition into a scoring description. */
  enrich_descriptions: z.boolean().optional(),
  ai_provider_id: Uuid.optional(),
  model: z.string().optional(),
});

export const SourceLabelSchema = z.object({
  label_name: z.string(),
  definition: z.string(),
  examples: z.array(z.string()),
});

export const ParsedMetricSchema = z.object({
  name: z.string(),
  description: z.string(),
  metric_type: MetricTypeSchema,
  custom_data_type: z.string(),
  custom_config: JsonObject,
  supported_surfaces: z.array(z.string()),
  enabled_surfaces: z.array(z.string()),
  capture_rationale: z.boolean(),
  suggested_tags: z.array(z.string()),
  source_label: SourceLabelSchema,
});

export const ParseBulkResponseSchema = z.object({
  metrics: z.array(ParsedMetricSchema),
  parent: z
    .object({
      name: z.string(),
      description: z.string(),
      selection_mode: SelectionModeSchema,
      supported_surfaces: z.array(z.string()),
      enabled_surfaces: z.array(z.string()),
    })
    .nullable(),
});
