import {
  type MetricCreateBody,
  type MetricUpdateBody,
  VOICE_MEASURE_METRIC_TYPES,
  VoiceMetricConfigSchema,
} from '@voice-eval/contract';
import { actorLabel, type RequestContext } from '../../context.js';
import { ApiError } from '../../errors.js';
import type { MetricLifecycle, MetricRow, MetricType, MetricWrite } from './repo.js';

/** The data type a metric type scores in, used when a request gives none. */
export const DATA_TYPE_OF: Record<MetricType, string> = {
  boolean: 'boolean',
  rating: 'integer',
  number: 'number',
  category: 'string',
};

/**
 * Surfaces a metric supports and is enabled on when a request gives none: every metric of this
 * service scores voice calls, so `voice`.
 */
export const DEFAULT_SURFACES: readonly string[] = ['voice'];

/** Default `metric_category` (the spec's sample value). */
export const DEFAULT_METRIC_CATEGORY = 'quality';
/** Default `trigger` (the spec's sample value). */
export const DEFAULT_TRIGGER = 'always';

/** A 422 `rule_violation` pointing at one request field. */
export const violation = (field: string, message: string) =>
  new ApiError('rule_violation', message, { errors: [{ path: `body.${field}`, message }] });

/** Tags trimmed, without duplicates (case-insensitive; the first spelling wins). */
export const normalizeTags = (tags: readonly string[]): string[] => {
  const seen = new Set<string>();
  return tags
    .map((tag) => tag.trim())
    .filter((tag) => tag && !seen.has(tag.toLowerCase()) && seen.add(tag.toLowerCase()));
};

/**
 * Rules 3 and 4 for a new child: the parent exists and is visible, is a top-level category
 * (`selection_mode` set; depth is at most 2), and has the lifecycle the child is created with
 * (a child's lifecycle always follows its parent's). The child itself may not set `selection_mode`.
 */
export const checkChild = (
  parent: MetricRow | undefined,
  body: Pick<MetricCreateBody, 'selection_mode'>,
  lifecycle: MetricLifecycle,
) => {
  if (!parent) throw violation('parent_metric_id', 'Parent metric not found');
  if (parent.parent_metric_id) {
    throw violation(
      'parent_metric_id',
      'The parent is itself a child: the hierarchy is at most 2 levels deep',
    );
  }
  if (!parent.selection_mode) {
    throw violation('parent_metric_id', 'The parent must be a category metric (with a selection_mode)');
  }
  if (body.selection_mode) throw violation('selection_mode', 'A child metric cannot have a selection_mode');
  if (parent.lifecycle !== lifecycle) {
    const hint =
      lifecycle === 'draft' ? 'create it with POST /metrics' : 'create it with POST /metrics/drafts';
    throw violation('parent_metric_id', `The parent is ${parent.lifecycle}: a child follows it, ${hint}`);
  }
};

/**
 * Rule 4 for a top-level metric as it will be stored: a `selection_mode` makes it a parent
 * category, so its type is `category`; a metric that has children keeps a `selection_mode`.
 */
export const checkTopLevel = (
  metric: Pick<MetricRow, 'selection_mode' | 'metric_type'>,
  childCount: number,
) => {
  if (metric.selection_mode && metric.metric_type !== 'category') {
    throw violation(
      'metric_type',
      'A metric with a selection_mode is a parent category: metric_type must be category',
    );
  }
  if (!metric.selection_mode && childCount > 0) {
    throw violation('selection_mode', 'This metric has children: it must keep a selection_mode');
  }
};

/**
 * A voice metric (`custom_config.voice_measure` set) names a known measure, is top-level, has the
 * measure's type (`number`, or `boolean` for `yielded_on_barge_in`), and a threshold only when it
 * is a number.
 */
export const checkVoiceMetric = (
  metric: Pick<MetricRow, 'custom_config' | 'metric_type' | 'parent_metric_id'>,
) => {
  const config = metric.custom_config as Record<string, unknown>;
  if (!('voice_measure' in config)) return;
  const parsed = VoiceMetricConfigSchema.safeParse(config);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw violation(`custom_config.${issue.path.join('.')}`, `Voice metric: ${issue.message}`);
  }
  const { voice_measure: measure, threshold } = parsed.data;
  if (metric.parent_metric_id) {
    throw violation('custom_config.voice_measure', 'A child metric cannot score a voice measure');
  }
  const type = VOICE_MEASURE_METRIC_TYPES[measure];
  if (metric.metric_type !== type) {
    throw violation('metric_type', `The voice measure ${measure} is scored by a ${type} metric`);
  }
  if (threshold && type !== 'number') {
    throw violation(
      'custom_config.threshold',
      `${measure} is a boolean: it fails when false, without a threshold`,
    );
  }
};

/** The stored values of a new metric from a create body (children take scope and workspace from `parent`). */
export const newMetricValues = (
  ctx: RequestContext,
  body: MetricCreateBody,
  lifecycle: MetricLifecycle,
  parent: MetricRow | null,
): MetricWrite => {
  const { scope: _scope, parent_metric_id: _parent, tags, ...fields } = body;
  const scope = parent ? parent.scope : (body.scope ?? 'workspace');
  const metricType: MetricType = parent
    ? 'boolean'
    : (body.metric_type ?? (body.selection_mode ? 'category' : 'boolean'));
  return {
    description: '',
    example: '',
    metric_category: DEFAULT_METRIC_CATEGORY,
    trigger: DEFAULT_TRIGGER,
    enabled: true,
    is_default: false,
    metric_origin: 'user',
    supported_surfaces: [...DEFAULT_SURFACES],
    enabled_surfaces: [...DEFAULT_SURFACES],
    custom_config: {},
    capture_rationale: false,
    allow_discovery: false,
    compare_transcripts: false,
    studio_notes: '',
    ...fields,
    organization_id: ctx.organizationId,
    workspace_id: parent ? parent.workspace_id : scope === 'workspace' ? ctx.workspaceId : null,
    scope,
    parent_metric_id: parent?.id ?? null,
    selection_mode: parent ? null : (body.selection_mode ?? null),
    metric_type: metricType,
    custom_data_type: parent ? 'boolean' : (body.custom_data_type ?? DATA_TYPE_OF[metricType]),
    tags: normalizeTags(tags ?? []),
    lifecycle,
    created_by: actorLabel(ctx),
  };
};

/**
 * The columns an update writes. A child stays boolean (rule 3: `metric_type` and
 * `custom_data_type` are forced, a `selection_mode` is refused); a new `metric_type` without a
 * `custom_data_type` re-derives it.
 */
export const updateValues = (current: MetricRow, body: MetricUpdateBody): Partial<MetricRow> => {
  const { tags, ...fields } = body;
  const patch: Partial<MetricRow> = { ...fields, ...(tags ? { tags: normalizeTags(tags) } : {}) };
  if (current.parent_metric_id) {
    if (body.selection_mode) throw violation('selection_mode', 'A child metric cannot have a selection_mode');
    delete patch.metric_type;
    delete patch.custom_data_type;
    return patch;
  }
  if (body.metric_type && body.custom_data_type === undefined)
    patch.custom_data_type = DATA_TYPE_OF[body.metric_type];
  return patch;
};
