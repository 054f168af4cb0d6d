import { isDeepStrictEqual } from 'node:util';
import type { Metric, MetricDefinition, MetricVersion, MetricVersionDraftBody } from '@voice-eval/contract';
import { actorLabel, type RequestContext } from '../../context.js';
import type { Deps } from '../../deps.js';
import { ApiError, notFound } from '../../errors.js';
import * as repo from './repo.js';
import { getMetric } from './service.js';
import { currentDefinition, topLevelMetric, toVersion } from './versions.js';
import * as versions from './versions-repo.js';

const violation = (detail: string, path: string, message: string) =>
  new ApiError('rule_violation', detail, { errors: [{ path, message }] });

/** The definition with the draft's words in place of the active version's. */
const drafted = (active: MetricDefinition, body: MetricVersionDraftBody): MetricDefinition => {
  const known = new Set(active.children.map((child) => child.id));
  const errors = (body.children ?? []).flatMap((child, i) =>
    known.has(child.id) ? [] : [{ path: `body.children.${i}.id`, message: 'Not a child of this metric' }],
  );
  if (errors.length > 0)
    throw new ApiError('rule_violation', 'Some children are not children of this metric.', { errors });
  const words = new Map((body.children ?? []).map((child) => [child.id, child]));
  return {
    ...active,
    description: body.description ?? active.description,
    example: body.example ?? active.example,
    children: active.children.map((child) => ({
      ...child,
      description: words.get(child.id)?.description ?? child.description,
      example: words.get(child.id)?.example ?? child.example,
    })),
  };
};

/**
 * Drafts the next version of an active top-level metric: its words changed as the body says, kept
 * beside the active version (which evaluations go on scoring with) until it is promoted. A draft
 * metric is edited directly instead (409); a draft that changes nothing is a 422.
 */
export const createDraftVersion = async (
  deps: Deps,
  ctx: RequestContext,
  id: string,
  body: MetricVersionDraftBody,
): Promise<MetricVersion> =>
  deps.db.transaction(async (trx) => {
    await topLevelMetric(trx, ctx, id);
    const metric = (await repo.findMetric(trx, ctx, id).forUpdate())!;
    if (metric.lifecycle !== 'active') {
      throw new ApiError('conflict', 'A draft metric is not in use yet: edit it directly, then promote it.');
    }
    const active = await currentDefinition(trx, metric);
    const definition = drafted(active, body);
    if (isDeepStrictEqual(definition, active)) {
      throw violation(
        'The draft changes nothing the judge reads.',
        'body',
        'Same words as the active version',
      );
    }
    const row: versions.MetricVersionRow = {
      metric_id: id,
      version: await versions.nextVersionNumber(trx, id),
      definition,
      draft: true,
      based_on: metric.version,
      created_by: actorLabel(ctx),
      created_at: deps.now(),
    };
    await versions.insertVersion(trx, row);
    return toVersion(metric, row);
  });

/**
 * Makes a draft version the active one: its words written to the metric and its children, which
 * take its number. Refused (409) for a version that is not a draft, and for a draft whose metric
 * changed since it was drafted (its words would undo that change: draft again from the new one).
 */
export const promoteVersion = async (
  deps: Deps,
  ctx: RequestContext,
  id: string,
  version: number,
): Promise<Metric> => {
  await deps.db.transaction(async (trx) => {
    await topLevelMetric(trx, ctx, id);
    const metric = (await repo.findMetric(trx, ctx, id).forUpdate())!;
    const row = await versions.findVersion(trx, id, version);
    if (!row) throw notFound('Metric version');
    if (!row.draft) throw new ApiError('conflict', `Version ${version} is not a draft.`);
    if (row.based_on !== metric.version) {
      throw new ApiError(
        'conflict',
        `The metric changed after version ${version} was drafted (it is at version ${metric.version}): draft again from it.`,
      );
    }
    const { definition } = row;
    await repo.updateMetric(trx, id, { description: definition.description, example: definition.example });
    for (const child of definition.children) {
      await repo.updateMetric(trx, child.id, { description: child.description, example: child.example });
    }
    await versions.setVersion(trx, id, version);
    await versions.markPromoted(trx, id, version);
  });
  return getMetric(deps, ctx, id);
};
