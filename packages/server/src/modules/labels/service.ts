import type { HumanLabel, HumanLabelBodySchema, Metric, PageQuery } from '@voice-eval/contract';
import type { z } from 'zod';
import { actorLabel, type RequestContext } from '../../context.js';
import { paginate } from '../../db/paginate.js';
import { iso } from '../../db/rows.js';
import type { Deps } from '../../deps.js';
import { ApiError, notFound } from '../../errors.js';
import { type CallRef, visibleCallRows } from '../call-imports/service.js';
import { readValue, snapshotMetric } from '../evaluations/results.js';
import { getMetric } from '../metrics/service.js';
import * as repo from './repo.js';

/**
 * A value as labels and scores are compared: a multi-label set in a stable order, anything else as
 * it is; equal keys mean the same value.
 */
export const valueKey = (value: unknown): string =>
  JSON.stringify(Array.isArray(value) ? [...value].sort() : value);

/** A label on the wire, with its call's conversation. */
export const toLabel = (row: repo.LabelRow, call: Pick<CallRef, 'conversation_id'>): HumanLabel => ({
  metric_id: row.metric_id,
  call_import_row_id: row.call_import_row_id,
  conversation_id: call.conversation_id,
  value: row.value,
  note: row.note,
  labelled_by: row.labelled_by,
  created_at: iso(row.created_at),
  updated_at: iso(row.updated_at),
});

/**
 * A label's value as the metric types its results: a boolean, a rating in range (an integer), a
 * number, a category's label as the metric spells it (several for a multi-label one). 422 at
 * `body.value` otherwise.
 */
const typedValue = (metric: Metric, value: unknown): repo.LabelRow['value'] => {
  const read = readValue(snapshotMetric(metric), value);
  if (read.ok && read.value !== null) return read.value;
  const problem = read.ok ? 'a value is expected' : read.problem;
  throw new ApiError('rule_violation', `The label does not fit the metric: ${problem}.`, {
    errors: [{ path: 'body.value', message: problem }],
  });
};

/**
 * The metric when it is top-level: people label a category, not its children (a child's label is
 * the category's value), so a child is 422 at `params.metric_id` with `detail`.
 */
export const topLevel = (metric: Metric, detail: string): Metric => {
  if (!metric.parent_metric_id) return metric;
  throw new ApiError('rule_violation', detail, {
    errors: [{ path: 'params.metric_id', message: `Child of ${metric.parent_metric_id}` }],
  });
};

const callOr404 = async (deps: Deps, ctx: RequestContext, rowId: string): Promise<CallRef> => {
  const call = (await visibleCallRows(deps, ctx, [rowId])).get(rowId);
  if (!call) throw notFound('Call');
  return call;
};

/**
 * Records the caller's label of a call on a metric (replacing theirs, if they gave one): the
 * metric and the call must be visible here, and the value must fit the metric's type.
 */
export const setLabel = async (
  deps: Deps,
  ctx: RequestContext,
  metricId: string,
  rowId: string,
  body: z.output<typeof HumanLabelBodySchema>,
): Promise<HumanLabel> => {
  const metric = topLevel(
    await getMetric(deps, ctx, metricId),
    'Label the category (the parent metric), with this label as its value.',
  );
  const value = typedValue(metric, body.value);
  const call = await callOr404(deps, ctx, rowId);
  const row = await repo.upsertLabel(
    deps.db,
    {
      organization_id: ctx.organizationId,
      workspace_id: ctx.workspaceId,
      metric_id: metric.id,
      call_import_row_id: call.id,
      labelled_by: actorLabel(ctx),
      value,
      note: body.note,
    },
    deps.now(),
  );
  return toLabel(row, call);
};

/** Withdraws the caller's label of a call on a metric; 404 when they gave none. */
export const deleteLabel = async (deps: Deps, ctx: RequestContext, metricId: string, rowId: string) => {
  await getMetric(deps, ctx, metricId);
  const deleted = await repo.deleteLabel(deps.db, ctx, metricId, rowId, actorLabel(ctx));
  if (deleted === 0) throw notFound('Label');
};

/** The workspace's labels of a metric, newest first, filtered by call and by who labelled. */
export const listLabels = async (
  deps: Deps,
  ctx: RequestContext,
  metricId: string,
  query: PageQuery & { call_import_row_id?: string; labelled_by?: string },
) => {
  await getMetric(deps, ctx, metricId);
  const page = await paginate(
    repo.labelsQuery(deps.db, ctx, metricId, query),
    query,
    (row: repo.LabelRow) => row,
    { createdAt: 'updated_at', id: 'call_import_row_id' },
  );
  const calls = await visibleCallRows(
    deps,
    ctx,
    page.items.map((row) => row.call_import_row_id),
  );
  return {
    ...page,
    items: page.items.map((row) =>
      toLabel(row, calls.get(row.call_import_row_id) ?? { conversation_id: '' }),
    ),
  };
};

/** The workspace's labels of these calls on these metrics (anyone's). */
export const labelsOn = (
  deps: Deps,
  ctx: RequestContext,
  metricIds: readonly string[],
  rowIds: readonly string[],
): Promise<repo.LabelRow[]> => repo.labelsOn(deps.db, ctx, metricIds, rowIds);
