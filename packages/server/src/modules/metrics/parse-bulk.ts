import type { ParseBulkBodySchema, ParseBulkResponseSchema } from '@voice-eval/contract';
import PQueue from 'p-queue';
import type { z } from 'zod';
import type { RequestContext } from '../../context.js';
import type { Deps } from '../../deps.js';
import { type EnrichedRubric, renderPrompt, rubricEnrichV1 } from '../../providers/index.js';
import { recordUsage } from '../../usage/record-usage.js';
import { chatProviderFor, emptyReply, failWithProvider } from './ai.js';
import { parseRubric, type RubricLabel } from './rubric-parser.js';
import { DEFAULT_SURFACES, violation } from './rules.js';

type ParseBulkBody = z.infer<typeof ParseBulkBodySchema>;
type ParseBulkResponse = z.infer<typeof ParseBulkResponseSchema>;

/** Most labels one rubric may hold. */
export const MAX_RUBRIC_LABELS = 200;
/** Most labels enriched in one request: each is one model call made while the client waits. */
export const MAX_ENRICHED_LABELS = 50;
/** Model calls in flight at once while enriching. */
const ENRICH_CONCURRENCY = 4;

/** The enriched description, then the pass and fail criteria as lists. */
const describeEnriched = (enriched: EnrichedRubric): string =>
  [
    enriched.description.trim(),
    enriched.pass_criteria.length > 0
      ? `Counts when:\n${enriched.pass_criteria.map((c) => `- ${c}`).join('\n')}`
      : '',
    enriched.fail_criteria.length > 0
      ? `Does not count when:\n${enriched.fail_criteria.map((c) => `- ${c}`).join('\n')}`
      : '',
  ]
    .filter(Boolean)
    .join('\n\n');

/** Runs `fn` over `items`, `limit` at a time (p-queue); the first failure stops new calls and is thrown. */
const mapLimit = async <T, R>(
  items: readonly T[],
  limit: number,
  fn: (item: T) => Promise<R>,
): Promise<R[]> => {
  const queue = new PQueue({ concurrency: limit });
  let failed = false;
  const run = async (item: T): Promise<R | undefined> => {
    if (failed) return undefined;
    try {
      return await fn(item);
    } catch (error) {
      failed = true;
      queue.clear();
      throw error;
    }
  };
  const results = await Promise.all(items.map((item) => queue.add(() => run(item))));
  return results as R[];
};

/** One model call per label, turning its definition into a judge-ready description. */
const enrich = async (deps: Deps, ctx: RequestContext, body: ParseBulkBody, labels: RubricLabel[]) => {
  if (labels.length > MAX_ENRICHED_LABELS) {
    throw violation(
      'enrich_descriptions',
      `At most ${MAX_ENRICHED_LABELS} labels can be enriched per request`,
    );
  }
  const provider = await chatProviderFor(deps, ctx, body.ai_provider_id);
  const fail = failWithProvider(deps, ctx, 'enrich');
  return mapLimit(labels, ENRICH_CONCURRENCY, async (label) => {
    const vars = {
      labelName: label.name,
      definition: label.definition || label.name,
      examples: label.examples,
      parentName: body.parent_name ?? null,
    };
    const result = await provider.chat(
      { ...renderPrompt(rubricEnrichV1, vars), model: body.model },
      { onUsage: recordUsage(deps, { organizationId: ctx.organizationId, purpose: 'metric.parse_bulk' }) },
    );
    if (!result.ok) return fail(result.error);
    if (!result.value.data.description.trim()) {
      return fail(emptyReply(result, 'empty description'));
    }
    return describeEnriched(result.value.data);
  });
};

/**
 * Parses a multi-label rubric into unsaved drafts: each `Label #N` block is a boolean metric that
 * captures a rationale, its label kept in `source_label`. `parent_name` makes them the children
 * of a parent category (`selection_mode` defaults to multi_label). With `enrich_descriptions`
 * a model rewrites each definition into a scoring description. Nothing is written.
 */
export const parseBulk = async (
  deps: Deps,
  ctx: RequestContext,
  body: ParseBulkBody,
): Promise<ParseBulkResponse> => {
  if (!body.parent_name && (body.selection_mode || body.parent_description !== undefined)) {
    throw violation(
      'parent_name',
      'selection_mode and parent_description describe a parent: give its parent_name',
    );
  }
  const labels = parseRubric(body.prompt);
  if (labels.length === 0) throw violation('prompt', 'No "Label #N" block found in the rubric');
  if (labels.length > MAX_RUBRIC_LABELS)
    throw violation('prompt', `At most ${MAX_RUBRIC_LABELS} labels per rubric`);
  const descriptions = body.enrich_descriptions
    ? await enrich(deps, ctx, body, labels)
    : labels.map((label) => label.definition);
  const tags = body.parent_name ? [body.parent_name.toLowerCase()] : [];
  return {
    metrics: labels.map((label, index) => ({
      name: label.name,
      description: descriptions[index]!,
      metric_type: 'boolean',
      custom_data_type: 'boolean',
      custom_config: {},
      supported_surfaces: [...DEFAULT_SURFACES],
      enabled_surfaces: [...DEFAULT_SURFACES],
      capture_rationale: true,
      suggested_tags: [...tags],
      source_label: { label_name: label.name, definition: label.definition, examples: label.examples },
    })),
    parent: body.parent_name
      ? {
          name: body.parent_name,
          description: body.parent_description ?? '',
          selection_mode: body.selection_mode ?? 'multi_label',
          supported_surfaces: [...DEFAULT_SURFACES],
          enabled_surfaces: [...DEFAULT_SURFACES],
        }
      : null,
  };
};
