import type { Metric, MetricCreateBody, MetricUpdateBody, PageQuery } from '@voice-eval/contract';
import type { Knex } from 'knex';
import { actorLabel, type RequestContext } from '../../context.js';
import { paginate } from '../../db/paginate.js';
import { iso, isoOrNull, isUniqueViolation } from '../../db/rows.js';
import type { Deps } from '../../deps.js';
import { ApiError, notFound } from '../../errors.js';
import * as repo from './repo.js';
import {
  checkChild,
  checkTopLevel,
  checkVoiceMetric,
  newMetricValues,
  updateValues,
  violation,
} from './rules.js';
import { currentDefinition, recordFirstVersion, recordVersionIfChanged } from './versions.js';

type Child = Metric['children'][number];

const toChild = (row: repo.MetricRow): Child => ({
  id: row.id,
  organization_id: row.organization_id,
  workspace_id: row.workspace_id,
  scope: row.scope,
  name: row.name,
  description: row.description,
  example: row.example,
  metric_type: row.metric_type,
  metric_category: row.metric_category,
  trigger: row.trigger,
  enabled: row.enabled,
  is_default: row.is_default,
  metric_origin: row.metric_origin,
  supported_surfaces: row.supported_surfaces,
  enabled_surfaces: row.enabled_surfaces,
  custom_data_type: row.custom_data_type,
  custom_config: row.custom_config,
  tags: row.tags,
  capture_rationale: row.capture_rationale,
  parent_metric_id: row.parent_metric_id,
  selection_mode: row.selection_mode,
  allow_discovery: row.allow_discovery,
  compare_transcripts: row.compare_transcripts,
  lifecycle: row.lifecycle,
  version: row.version,
  promoted_from_draft_at: isoOrNull(row.promoted_from_draft_at),
  studio_notes: row.studio_notes,
  created_at: iso(row.created_at),
  updated_at: iso(row.updated_at),
  created_by: row.created_by,
  children: [],
});

/** A metric row and its children's rows (already in order) as the wire's Metric. */
export const toMetric = (row: repo.MetricRow, children: repo.MetricRow[] = []): Metric => ({
  ...toChild(row),
  children: children.map(toChild),
});

/** Metric rows with their children inlined, keeping the rows' order. */
const withChildren = async (db: Knex, rows: repo.MetricRow[]): Promise<Metric[]> => {
  const children = await repo.childrenOf(
    db,
    rows.filter((row) => row.selection_mode).map((row) => row.id),
  );
  return rows.map((row) =>
    toMetric(
      row,
      children.filter((child) => child.parent_metric_id === row.id),
    ),
  );
};

const nameTaken = (name: string) =>
  new ApiError('conflict', `A metric named "${name}" already exists in this scope.`);

/**
 * Inserts a metric, mapping the unique name index to 409 and a vanished parent to 422. A top-level
 * metric gets its version 1; a child is a change of its parent's (see `createMetric`).
 */
export const insertMetric = async (db: Knex, values: repo.MetricWrite): Promise<repo.MetricRow> => {
  try {
    const row = await repo.insertMetric(db, values);
    if (!row.parent_metric_id) await recordFirstVersion(db, row, row.created_at);
    return row;
  } catch (error) {
    if (isUniqueViolation(error, 'metrics_name_unique')) throw nameTaken(values.name);
    if ((error as { code?: string }).code === '23503')
      throw violation('parent_metric_id', 'Parent metric not found');
    throw error;
  }
};

/**
 * Creates a metric (rules 1-4 of the spec), active or as a draft. The parent is locked so it
 * cannot stop being a category, or be promoted, while the child is inserted; a new child (a new
 * label) makes the parent's next version.
 */
export const createMetric = async (
  deps: Deps,
  ctx: RequestContext,
  body: MetricCreateBody,
  lifecycle: repo.MetricLifecycle = 'active',
): Promise<Metric> =>
  deps.db.transaction(async (trx) => {
    let parent: repo.MetricRow | null = null;
    if (body.parent_metric_id) {
      const found = await repo.findMetric(trx, ctx, body.parent_metric_id).forUpdate();
      checkChild(found, body, lifecycle);
      parent = found!;
    }
    const values = newMetricValues(ctx, body, lifecycle, parent);
    if (!parent) checkTopLevel(values, 0);
    checkVoiceMetric(values);
    if (!parent) return toMetric(await insertMetric(trx, values));
    const before = await currentDefinition(trx, parent);
    const row = await insertMetric(trx, values);
    const version = await recordVersionIfChanged(trx, parent.id, before, actorLabel(ctx), deps.now());
    return toMetric({ ...row, version });
  });

/** A visible metric with its children (any lifecycle: a child's always equals its parent's). */
export const getMetric = async (deps: Deps, ctx: RequestContext, id: string): Promise<Metric> => {
  const row = await repo.findMetric(deps.db, ctx, id);
  if (!row) throw notFound('Metric');
  const [metric] = await withChildren(deps.db, [row]);
  return metric!;
};

/**
 * Visible metrics, newest first: active ones unless `lifecycle` says otherwise, top-level ones
 * (children inlined) unless `parent_metric_id` asks for a parent's children.
 */
export const listMetrics = async (
  deps: Deps,
  ctx: RequestContext,
  query: PageQuery & Partial<repo.MetricFilters>,
) => {
  const filters = { ...query, lifecycle: query.lifecycle ?? 'active' };
  const page = await paginate(repo.metricsQuery(deps.db, ctx, filters), query, (row: repo.MetricRow) => row);
  return { ...page, items: await withChildren(deps.db, page.items) };
};

/**
 * Locks a metric and the top-level metric of its family (itself, or its parent, locked first so
 * that every writer of a family takes the locks in one order), with what the family judges now.
 */
const lockFamily = async (trx: Knex, ctx: RequestContext, id: string) => {
  const found = await repo.findMetric(trx, ctx, id);
  if (!found) throw notFound('Metric');
  const top = await repo.findMetric(trx, ctx, found.parent_metric_id ?? id).forUpdate();
  const current = found.parent_metric_id ? await repo.findMetric(trx, ctx, id).forUpdate() : top;
  if (!top || !current) throw notFound('Metric');
  return { current, top, before: await currentDefinition(trx, top) };
};

/**
 * Applies a partial update, re-checking rules 1-4 on the result (the rows are locked meanwhile).
 * A change to what the metric judges (a child's too) makes the family's next version.
 */
export const updateMetric = async (
  deps: Deps,
  ctx: RequestContext,
  id: string,
  body: MetricUpdateBody,
): Promise<Metric> =>
  deps.db.transaction(async (trx) => {
    const { current, top, before } = await lockFamily(trx, ctx, id);
    const patch = updateValues(current, body);
    if (!current.parent_metric_id) checkTopLevel({ ...current, ...patch }, await repo.childCount(trx, id));
    checkVoiceMetric({ ...current, ...patch });
    let row: repo.MetricRow;
    try {
      row = await repo.updateMetric(trx, id, patch);
    } catch (error) {
      if (isUniqueViolation(error, 'metrics_name_unique')) throw nameTaken(body.name ?? current.name);
      throw error;
    }
    const version = await recordVersionIfChanged(trx, top.id, before, actorLabel(ctx), deps.now());
    const [metric] = await withChildren(trx, [{ ...row, version }]);
    return metric!;
  });

/**
 * Promotes a draft (and its children, whose lifecycle follows it) to active, stamping
 * `promoted_from_draft_at`. Not a draft: 409; a child: 422 (promote its parent).
 */
export const promoteMetric = async (deps: Deps, ctx: RequestContext, id: string): Promise<Metric> =>
  deps.db.transaction(async (trx) => {
    const current = await repo.findMetric(trx, ctx, id).forUpdate();
    if (!current) throw notFound('Metric');
    if (current.lifecycle !== 'draft') throw new ApiError('conflict', 'Only a draft metric can be promoted.');
    if (current.parent_metric_id) {
      throw new ApiError('rule_violation', "A child's lifecycle follows its parent: promote the parent.");
    }
    await repo.promoteDraft(trx, id, deps.now());
    const [metric] = await withChildren(trx, [(await repo.findMetric(trx, ctx, id))!]);
    return metric!;
  });

/**
 * Deletes a metric and its children. Refused (409 `in_use`) while an evaluator or evaluator
 * suite lists the metric or one of its children: remove it from them first. Scores already
 * recorded keep the metric's name, so past results stay readable.
 */
export const deleteMetric = async (deps: Deps, ctx: RequestContext, id: string): Promise<void> =>
  deps.db.transaction(async (trx) => {
    const { current, top, before } = await lockFamily(trx, ctx, id);
    const ids = [id, ...(await repo.childrenOf(trx, [id])).map((child) => child.id)];
    const references = await repo.referenceCount(trx, ids);
    if (references > 0) {
      throw new ApiError(
        'in_use',
        `${references} evaluator(s) or suite(s) use this metric or its children; remove it from them first.`,
      );
    }
    await repo.deleteMetric(trx, id);
    // a label removed changes what its parent judges
    if (current.parent_metric_id)
      await recordVersionIfChanged(trx, top.id, before, actorLabel(ctx), deps.now());
  });

/**
 * The active metrics with these ids the request can see, with their children, in the order
 * given; for evaluations and evaluators. Unknown, foreign and draft ids are a 422 at `path`.
 */
export const resolveActiveMetrics = async (
  deps: Deps,
  ctx: RequestContext,
  ids: readonly string[],
  path = 'body.metric_ids',
): Promise<Metric[]> => {
  const unique = [...new Set(ids)];
  const rows = await repo.findActive(deps.db, ctx, unique);
  const byId = new Map(rows.map((row) => [row.id, row]));
  const missing = unique.filter((id) => !byId.has(id));
  if (missing.length > 0) {
    throw new ApiError('rule_violation', 'Some metrics do not exist, are not visible here, or are drafts.', {
      errors: missing.map((id) => ({
        path,
        message: `Metric ${id} is not an active metric of this workspace`,
      })),
    });
  }
  return withChildren(
    deps.db,
    unique.map((id) => byId.get(id)!),
  );
};

/**
 * Active top-level metrics the scope can see, by the slug of their name (slug -> id): what a
 * judge's discovered problem key resolves to.
 */
export const activeMetricIdsBySlug = (
  db: Knex,
  scope: repo.Scope,
  slugs: readonly string[],
): Promise<Map<string, string>> => repo.activeIdsBySlug(db, scope, slugs);
