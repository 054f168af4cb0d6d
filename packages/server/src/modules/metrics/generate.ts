import type { MetricGenerateBodySchema, MetricSuggestionSchema } from '@voice-eval/contract';
import type { z } from 'zod';
import type { RequestContext } from '../../context.js';
import type { Deps } from '../../deps.js';
import {
  metricGenerateV1,
  type MetricSuggestion as PromptSuggestion,
  renderPrompt,
} from '../../providers/index.js';
import { recordUsage } from '../../usage/record-usage.js';
import { chatProviderFor, emptyReply, failWithProvider } from './ai.js';
import * as repo from './repo.js';
import { DATA_TYPE_OF, DEFAULT_SURFACES, normalizeTags, violation } from './rules.js';

type GenerateBody = z.infer<typeof MetricGenerateBodySchema>;
type Suggestion = z.infer<typeof MetricSuggestionSchema>;

/** How many existing names the model is shown so that it does not suggest one again. */
const EXISTING_NAMES_SHOWN = 100;
const MAX_SUGGESTED_TAGS = 8;

/** What the prompt's `description` says for each mode; a requested type is stated too. */
const describe = (body: GenerateBody & { input: string }): string => {
  const subject =
    body.mode === 'description'
      ? body.input
      : `The metric that best captures the agent behaviour that matters most in calls like this transcript excerpt:\n\n${body.input}`;
  return body.metric_type ? `${subject}\n\nThe metric must be of type ${body.metric_type}.` : subject;
};

/** The type-specific part of `custom_config`: a scale for rating and number, labels for category. */
const configOf = (type: Suggestion['metric_type'], config: PromptSuggestion['custom_config']) => {
  if (type === 'category') return { labels: config.labels.map((l) => l.trim()).filter(Boolean) };
  if (type === 'boolean') return {};
  const scale =
    type === 'rating' ? { min: config.min ?? 1, max: config.max ?? 5 } : { min: config.min, max: config.max };
  return Object.fromEntries(Object.entries(scale).filter(([, v]) => v !== null));
};

/** The model's suggestion as the wire's; a requested `metric_type` wins over the model's. */
const toSuggestion = (
  data: PromptSuggestion,
  requested: GenerateBody['metric_type'],
  provider: string,
  model: string,
): Suggestion => {
  const metricType = requested ?? data.metric_type;
  return {
    name: data.name.trim().replace(/\s+/g, ' ').slice(0, 200),
    description: data.description.trim(),
    metric_type: metricType,
    custom_data_type:
      requested && requested !== data.metric_type ? DATA_TYPE_OF[metricType] : data.custom_data_type,
    custom_config: configOf(metricType, data.custom_config),
    supported_surfaces: [...DEFAULT_SURFACES],
    enabled_surfaces: [...DEFAULT_SURFACES],
    suggested_tags: normalizeTags(data.suggested_tags.map((t) => t.toLowerCase())).slice(
      0,
      MAX_SUGGESTED_TAGS,
    ),
    provider,
    model,
  };
};

/**
 * Asks the organization's chat provider (or the server default) to suggest a metric from a
 * description or a transcript excerpt. The reply is validated against the prompt's schema;
 * nothing is persisted. `input` is required (422); a reply without a name is a provider failure.
 */
export const generateMetric = async (
  deps: Deps,
  ctx: RequestContext,
  body: GenerateBody,
): Promise<Suggestion> => {
  const input = body.input;
  if (!input) {
    throw violation(
      'input',
      body.mode === 'description' ? 'Describe what to measure' : 'Give a transcript excerpt',
    );
  }
  const provider = await chatProviderFor(deps, ctx, body.ai_provider_id);
  const existingNames = await repo.visibleNames(deps.db, ctx, EXISTING_NAMES_SHOWN);
  const result = await provider.chat(
    {
      ...renderPrompt(metricGenerateV1, { description: describe({ ...body, input }), existingNames }),
      model: body.model,
    },
    { onUsage: recordUsage(deps, { organizationId: ctx.organizationId, purpose: 'metric.generate' }) },
  );
  const fail = failWithProvider(deps, ctx, 'generate');
  if (!result.ok) return fail(result.error);
  if (!result.value.data.name.trim()) {
    return fail(emptyReply(result, 'empty name'));
  }
  return toSuggestion(result.value.data, body.metric_type, result.provider, result.value.model);
};
