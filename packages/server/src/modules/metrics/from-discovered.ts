import type { FromDiscoveredBodySchema, Metric } from '@voice-eval/contract';
import type { z } from 'zod';
import type { RequestContext } from '../../context.js';
import type { Deps } from '../../deps.js';
import { ApiError } from '../../errors.js';
import * as repo from './repo.js';
import { newMetricValues } from './rules.js';
import { insertMetric, toMetric } from './service.js';

type FromDiscoveredBody = z.infer<typeof FromDiscoveredBodySchema>;

/** Lower-case, runs of non-alphanumerics as `_`, trimmed of `_`: `"Handles refunds!"` -> `handles_refunds`. */
export const slugOf = (name: string): string =>
  name
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '_')
    .replace(/^_+|_+$/g, '');

/** A slug as a sentence-case name: `handles_refunds` -> `Handles refunds`. */
export const humanizeKey = (key: string): string => {
  const words = key.split('_').filter(Boolean).join(' ');
  return words.charAt(0).toUpperCase() + words.slice(1);
};

/** The stored name: the given one when its slug is the key, else the key humanized. */
export const discoveredName = (key: string, name: string): string =>
  slugOf(name) === key ? name : humanizeKey(key);

/** How each discovered type is stored: category becomes a multi_label parent without children. */
const SHAPES = {
  boolean: { metric_type: 'boolean', selection_mode: null, custom_config: {} },
  rating: { metric_type: 'rating', selection_mode: null, custom_config: { min: 1, max: 5 } },
  category: { metric_type: 'category', selection_mode: 'multi_label', custom_config: {} },
} as const;

/**
 * Promotes a metric the judge discovered to a standalone active workspace metric whose name's
 * slug equals `key`, so rows scored under the key stay resolvable. `key` must already be a slug
 * (422). A visible top-level metric with the same slug (this workspace or organization scope,
 * drafts included) is a 409; an advisory lock on the key serialises concurrent promotions.
 */
export const fromDiscovered = async (
  deps: Deps,
  ctx: RequestContext,
  body: FromDiscoveredBody,
): Promise<Metric> => {
  if (slugOf(body.key) !== body.key) {
    throw new ApiError('validation_failed', 'key must be a slug: lower-case letters and digits joined by _', {
      errors: [{ path: 'body.key', message: `Expected "${slugOf(body.key)}"` }],
    });
  }
  const name = discoveredName(body.key, body.name);
  const shape = SHAPES[body.metric_type];
  return deps.db.transaction(async (trx) => {
    await repo.lockKey(trx, ctx, body.key);
    const existing = await repo.findBySlug(trx, ctx, body.key);
    if (existing) {
      throw new ApiError('conflict', `The metric "${existing.name}" already has the key ${body.key}.`);
    }
    const values = newMetricValues(
      ctx,
      { name, ...shape, custom_config: { ...shape.custom_config } },
      'active',
      null,
    );
    return toMetric(await insertMetric(trx, { ...values, metric_origin: 'discovered' }));
  });
};
