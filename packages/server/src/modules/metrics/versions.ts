import { isDeepStrictEqual } from 'node:util';
import type { Metric, MetricDefinition, MetricVersion, PageQuery } from '@voice-eval/contract';
import type { Knex } from 'knex';
import type { RequestContext } from '../../context.js';
import { paginate } from '../../db/paginate.js';
import { iso } from '../../db/rows.js';
import type { Deps } from '../../deps.js';
import { ApiError, notFound } from '../../errors.js';
import * as repo from './repo.js';
import * as versions from './versions-repo.js';

/** What a top-level metric judges: the fields the judge is given, and its children (its labels). */
export const definitionOf = (row: repo.MetricRow, children: readonly repo.MetricRow[]): MetricDefinition => ({
  description: row.description,
  example: row.example,
  metric_type: row.metric_type,
  custom_data_type: row.custom_data_type,
  custom_config: row.custom_config,
  selection_mode: row.selection_mode,
  children: children.map((child) => ({
    id: child.id,
    name: child.name,
    description: child.description,
    example: child.example,
  })),
});

/** Records version 1 of a new top-level metric (its row starts at version 1). */
export const recordFirstVersion = (trx: Knex, row: repo.MetricRow, at: Date) =>
  versions.insertVersion(trx, {
    metric_id: row.id,
    version: 1,
    definition: definitionOf(row, []),
    created_by: row.created_by,
    created_at: at,
  });

/**
 * Records the next version of a top-level metric when what it judges changed between `before` and
 * its rows as they are now (the caller holds the parent's row lock); returns the metric's version
 * number after it. A change to anything else (a rename, tags) keeps the version.
 */
export const recordVersionIfChanged = async (
  trx: Knex,
  parentId: string,
  before: MetricDefinition,
  actor: string,
  at: Date,
): Promise<number> => {
  const parent = (await trx('metrics').where({ id: parentId }).first()) as repo.MetricRow;
  const after = definitionOf(parent, await repo.childrenOf(trx, [parentId]));
  if (isDeepStrictEqual(before, after)) return parent.version;
  const version = await versions.nextVersionNumber(trx, parentId);
  await versions.insertVersion(trx, {
    metric_id: parentId,
    version,
    definition: after,
    created_by: actor,
    created_at: at,
  });
  await versions.setVersion(trx, parentId, version);
  return version;
};

/** The definition of a top-level metric as its rows hold it now. */
export const currentDefinition = async (trx: Knex, parent: repo.MetricRow): Promise<MetricDefinition> =>
  definitionOf(parent, await repo.childrenOf(trx, [parent.id]));

/**
 * A version's status: a drafted version not promoted is a `draft`; the metric's current one is
 * `active` (or `draft`, with a draft metric); any other is `superseded`.
 */
export const statusOf = (
  metric: Pick<repo.MetricRow, 'version' | 'lifecycle'>,
  row: Pick<versions.MetricVersionRow, 'version' | 'draft'>,
): MetricVersion['status'] => {
  if (row.draft) return 'draft';
  return row.version === metric.version ? metric.lifecycle : 'superseded';
};

/**
 * A visible metric's versions, newest first, with their status ({@link statusOf}). A child has
 * none of its own: 422, list its parent's.
 */
export const listVersions = async (deps: Deps, ctx: RequestContext, id: string, query: PageQuery) => {
  const metric = await topLevelMetric(deps.db, ctx, id);
  return paginate(
    versions.versionsQuery(deps.db, id),
    query,
    (row: versions.MetricVersionRow) => toVersion(metric, row),
    // numbers only grow: newest first by number
    { createdAt: 'version', id: 'version' },
  );
};

/** A version row as the wire's MetricVersion. */
export const toVersion = (
  metric: Pick<repo.MetricRow, 'version' | 'lifecycle'>,
  row: versions.MetricVersionRow,
): MetricVersion => ({
  metric_id: row.metric_id,
  version: row.version,
  status: statusOf(metric, row),
  definition: row.definition,
  based_on: row.based_on,
  created_at: iso(row.created_at),
  created_by: row.created_by,
});

/** A visible top-level metric's row (404 unknown; 422 a child, which is versioned with its parent). */
export const topLevelMetric = async (db: Knex, ctx: RequestContext, id: string) => {
  const metric = await repo.findMetric(db, ctx, id);
  if (!metric) throw notFound('Metric');
  if (metric.parent_metric_id) {
    throw new ApiError(
      'rule_violation',
      "A child metric is versioned with its parent: use the parent's versions.",
      {
        errors: [{ path: 'params.metric_id', message: `Child of ${metric.parent_metric_id}` }],
      },
    );
  }
  return metric;
};

/** A version of a visible top-level metric, or undefined when it has no such version. */
export const findMetricVersion = async (
  deps: Deps,
  ctx: RequestContext,
  id: string,
  version: number,
): Promise<MetricVersion | undefined> => {
  const metric = await topLevelMetric(deps.db, ctx, id);
  const row = await versions.findVersion(deps.db, id, version);
  return row && toVersion(metric, row);
};

/** The metric as one of its versions defined it (its words, type, config and labels; that number). */
export const metricAtVersion = (metric: Metric, version: MetricVersion): Metric => {
  const { children, ...judged } = version.definition;
  return {
    ...metric,
    ...judged,
    version: version.version,
    children: children.map((child) => ({
      ...metric,
      ...child,
      parent_metric_id: metric.id,
      selection_mode: null,
      version: version.version,
      children: [],
    })),
  };
};
