import type {
  PageQuery,
  ReviewItem,
  ReviewQueue,
  ReviewQueueCreateBodySchema,
  ReviewQueueSourceSchema,
} from '@voice-eval/contract';
import type { z } from 'zod';
import { actorLabel, type RequestContext } from '../../context.js';
import { paginate } from '../../db/paginate.js';
import { iso, isoOrNull } from '../../db/rows.js';
import type { Deps } from '../../deps.js';
import { ApiError, notFound } from '../../errors.js';
import { type CallRef, callsOfImport, visibleCallRows } from '../call-imports/service.js';
import { scoredRowsOf } from '../evaluations/service.js';
import { labelsOn, valueKey } from '../labels/service.js';
import { resolveActiveMetrics } from '../metrics/service.js';
import { findRunOr404 } from '../suite-runs/service.js';
import * as repo from './repo.js';
import { type Candidate, sampleCalls } from './sample.js';

type Source = z.output<typeof ReviewQueueSourceSchema>;
type Scored = { call: CallRef; results: Array<{ metric_id: string; value: unknown; flagged: boolean }> };

export const toQueue = (row: repo.QueueRow, counts: repo.Counts): ReviewQueue => ({
  id: row.id,
  organization_id: row.organization_id,
  workspace_id: row.workspace_id,
  name: row.name,
  source: row.source as ReviewQueue['source'],
  metric_ids: row.metric_ids,
  sample_size: row.sample_size,
  strategy: row.strategy as ReviewQueue['strategy'],
  seed: row.seed,
  assignees: row.assignees,
  lock_minutes: row.lock_minutes,
  status: row.status,
  counts,
  created_by: row.created_by,
  created_at: iso(row.created_at),
  completed_at: isoOrNull(row.completed_at),
});

/** An item on the wire: a claim that expired reads as open, with no holder. */
export const toItem = (row: repo.ItemRow, now: Date): ReviewItem => {
  const expired = row.status === 'claimed' && (row.claim_expires_at?.getTime() ?? 0) <= now.getTime();
  return {
    id: row.id,
    queue_id: row.queue_id,
    position: row.position,
    call_import_row_id: row.call_import_row_id,
    call_import_id: row.call_import_id,
    conversation_id: row.conversation_id,
    status: expired ? 'open' : row.status,
    claimed_by: expired ? null : row.claimed_by,
    claim_expires_at: expired ? null : isoOrNull(row.claim_expires_at),
    done_by: row.done_by,
    done_at: isoOrNull(row.done_at),
  };
};

/** The source's calls with what the judge said of them (nothing, for a call import). */
const scoredCalls = async (deps: Deps, ctx: RequestContext, source: Source): Promise<Scored[]> => {
  if (source.kind === 'call_import') {
    return (await callsOfImport(deps, ctx, source.call_import_id)).map((call) => ({ call, results: [] }));
  }
  const evaluationId =
    source.kind === 'evaluation'
      ? source.evaluation_id
      : (await findRunOr404(deps, ctx, source.suite_run_id)).evaluation_id;
  if (!evaluationId) return [];
  const rows = await scoredRowsOf(deps, ctx, evaluationId);
  const calls = await visibleCallRows(
    deps,
    ctx,
    rows.map((row) => row.call_import_row_id),
  );
  return rows.flatMap((row) => {
    const call = calls.get(row.call_import_row_id);
    return call ? [{ call, results: row.results }] : [];
  });
};

/**
 * Samples a queue's calls from its source: an evaluation's (or a suite run's) scored calls, or an
 * import's calls, by the strategy and seed, and stores them as its items in order.
 */
export const createQueue = async (
  deps: Deps,
  ctx: RequestContext,
  body: z.output<typeof ReviewQueueCreateBodySchema>,
): Promise<ReviewQueue> => {
  const metrics = await resolveActiveMetrics(deps, ctx, body.metric_ids);
  const children = metrics.filter((m) => m.parent_metric_id);
  if (children.length > 0) {
    throw new ApiError('rule_violation', 'Label categories through their parent metric.', {
      errors: children.map((m) => ({ path: 'body.metric_ids', message: `${m.id} is a child metric` })),
    });
  }
  const metricIds = metrics.map((m) => m.id);
  const scored = await scoredCalls(deps, ctx, body.source);
  const labels = await labelsOn(
    deps,
    ctx,
    metricIds,
    scored.map((s) => s.call.id),
  );
  const labelled = new Map<string, string[]>();
  for (const label of labels) {
    const key = `${label.call_import_row_id}:${label.metric_id}`;
    labelled.set(key, [...(labelled.get(key) ?? []), valueKey(label.value)]);
  }
  const candidates: Array<Candidate & { call: CallRef }> = scored.map(({ call, results }) => {
    const mine = results.filter((r) => metricIds.includes(r.metric_id));
    return {
      rowId: call.id,
      call,
      flagged: mine.some((r) => r.flagged),
      disputed: mine.some((r) =>
        (labelled.get(`${call.id}:${r.metric_id}`) ?? []).some((value) => value !== valueKey(r.value)),
      ),
    };
  });
  const seed = body.seed ?? Math.floor(Math.random() * 2_147_483_647);
  const picked = sampleCalls(candidates, body.strategy, body.sample_size, seed) as typeof candidates;
  const now = deps.now();
  const row = await deps.db.transaction((trx) =>
    repo.insertQueue(
      trx,
      {
        organization_id: ctx.organizationId,
        workspace_id: ctx.workspaceId,
        name: body.name,
        source: body.source,
        metric_ids: metricIds,
        sample_size: body.sample_size,
        strategy: body.strategy,
        seed,
        assignees: body.assignees,
        lock_minutes: body.lock_minutes,
        created_by: actorLabel(ctx),
        created_at: now,
      },
      picked.map(({ call }) => ({
        call_import_row_id: call.id,
        call_import_id: call.call_import_id,
        conversation_id: call.conversation_id,
      })),
    ),
  );
  return toQueue(row, { total: picked.length, open: picked.length, claimed: 0, done: 0 });
};

/** A queue of the workspace; 404 otherwise. */
export const queueOr404 = async (deps: Deps, ctx: RequestContext, id: string): Promise<repo.QueueRow> => {
  const row = await repo.findQueue(deps.db, ctx, id);
  if (!row) throw notFound('Review queue');
  return row;
};

export const getQueue = async (deps: Deps, ctx: RequestContext, id: string): Promise<ReviewQueue> => {
  const row = await queueOr404(deps, ctx, id);
  return toQueue(row, (await repo.countsOf(deps.db, [row.id], deps.now())).get(row.id)!);
};

export const listQueues = async (deps: Deps, ctx: RequestContext, query: PageQuery) => {
  const page = await paginate(repo.queuesQuery(deps.db, ctx), query, (row: repo.QueueRow) => row);
  const counts = await repo.countsOf(
    deps.db,
    page.items.map((row) => row.id),
    deps.now(),
  );
  return { ...page, items: page.items.map((row) => toQueue(row, counts.get(row.id)!)) };
};

export const deleteQueue = async (deps: Deps, ctx: RequestContext, id: string) => {
  if ((await repo.deleteQueue(deps.db, ctx, id)) === 0) throw notFound('Review queue');
};

/** A queue's items in order, filtered by state. */
export const listItems = async (
  deps: Deps,
  ctx: RequestContext,
  id: string,
  query: PageQuery & { status?: ReviewItem['status'] },
) => {
  const queue = await queueOr404(deps, ctx, id);
  const now = deps.now();
  const base = repo.itemsQuery(deps.db, queue.id, query.status, now);
  const [rows, counted] = await Promise.all([
    base
      .clone()
      .select('*')
      .orderBy('position')
      .limit(query.page_size)
      .offset((query.page - 1) * query.page_size),
    base.clone().count({ total: '*' }),
  ]);
  return {
    items: (rows as repo.ItemRow[]).map((row) => toItem(row, now)),
    total: Number((counted as Array<{ total: number | string }>)[0]?.total ?? 0),
    page: query.page,
    page_size: query.page_size,
  };
};
