import type { ReviewItem } from '@voice-eval/contract';
import { actorLabel, type RequestContext } from '../../context.js';
import type { Deps } from '../../deps.js';
import { ApiError, notFound } from '../../errors.js';
import { labelsOn } from '../labels/service.js';
import { emitEvents } from '../webhook-endpoints/events.js';
import * as repo from './repo.js';
import { queueOr404, toItem } from './service.js';

/** Who acts, refused (403) when the queue names its assignees and the caller is not one. */
const reviewerOf = (ctx: RequestContext, queue: repo.QueueRow): string => {
  const who = actorLabel(ctx);
  if (queue.assignees.length > 0 && !queue.assignees.includes(who)) {
    throw new ApiError('forbidden', 'This queue is assigned to other reviewers.');
  }
  return who;
};

/**
 * The caller's next call: the one they hold (its claim renewed), else the first open one in order
 * (or one whose claim expired), claimed for the queue's lock time. Null when none is left.
 */
export const nextItem = async (
  deps: Deps,
  ctx: RequestContext,
  id: string,
): Promise<{ item: ReviewItem | null }> => {
  const queue = await queueOr404(deps, ctx, id);
  const who = reviewerOf(ctx, queue);
  const now = deps.now();
  const until = new Date(now.getTime() + queue.lock_minutes * 60_000);
  const item = await deps.db.transaction(async (trx) => {
    const held = await repo.heldBy(trx, queue.id, who, now);
    return held ? repo.renewClaim(trx, held.id, until) : repo.claimNext(trx, queue.id, who, now, until);
  });
  return { item: item ? toItem(item, now) : null };
};

/** Locks an item of the queue the caller may act on: theirs, or open (an expired claim is open). */
const lockMine = async (
  deps: Deps,
  trx: typeof deps.db,
  queue: repo.QueueRow,
  itemId: string,
  who: string,
) => {
  const item = await repo.lockItem(trx, queue.id, itemId);
  if (!item) throw notFound('Review item');
  const held = item.status === 'claimed' && (item.claim_expires_at?.getTime() ?? 0) > deps.now().getTime();
  if (held && item.claimed_by !== who) {
    throw new ApiError(
      'conflict',
      `${item.claimed_by} holds this call until ${item.claim_expires_at?.toISOString()}.`,
    );
  }
  return item;
};

/**
 * Marks a call done once the caller has labelled it on every metric of the queue (422 naming the
 * ones left otherwise). The last call done completes the queue, with its `review_queue.completed`
 * event in the same transaction. Done again is the same answer.
 */
export const completeItem = async (deps: Deps, ctx: RequestContext, id: string, itemId: string) => {
  const queue = await queueOr404(deps, ctx, id);
  const who = reviewerOf(ctx, queue);
  const now = deps.now();
  // the caller's own labels, read before the item is locked (a transaction holds its connection)
  const call = (await repo.findItem(deps.db, queue.id, itemId))?.call_import_row_id;
  if (!call) throw notFound('Review item');
  const labelled = new Set(
    (await labelsOn(deps, ctx, queue.metric_ids, [call]))
      .filter((label) => label.labelled_by === who)
      .map((label) => label.metric_id),
  );
  const done = await deps.db.transaction(async (trx) => {
    const item = await lockMine(deps, trx, queue, itemId, who);
    if (item.status === 'done') return item;
    const missing = queue.metric_ids.filter((metricId) => !labelled.has(metricId));
    if (missing.length > 0) {
      throw new ApiError('rule_violation', 'Label the call on every metric of the queue first.', {
        errors: missing.map((metricId) => ({
          path: 'metric_ids',
          message: `No label of yours on ${metricId}`,
        })),
      });
    }
    const updated = await repo.updateItem(trx, item.id, {
      status: 'done',
      done_by: who,
      done_at: now,
      claimed_by: null,
      claim_expires_at: null,
    });
    if ((await repo.notDone(trx, queue.id)) === 0 && (await repo.completeQueue(trx, queue.id, now))) {
      const total = (await repo.countsOf(trx, [queue.id], now)).get(queue.id)!.total;
      await emitEvents(
        trx,
        [
          {
            organizationId: queue.organization_id,
            type: 'review_queue.completed',
            data: {
              queue_id: queue.id,
              workspace_id: queue.workspace_id,
              name: queue.name,
              items: total,
              metric_ids: queue.metric_ids,
              completed_at: now.toISOString(),
            },
          },
        ],
        now,
      );
    }
    return updated;
  });
  return toItem(done, now);
};

/** Gives back a call the caller holds (or an open one: nothing changes), unlabelled. */
export const releaseItem = async (deps: Deps, ctx: RequestContext, id: string, itemId: string) => {
  const queue = await queueOr404(deps, ctx, id);
  const who = reviewerOf(ctx, queue);
  const now = deps.now();
  const item = await deps.db.transaction(async (trx) => {
    const locked = await lockMine(deps, trx, queue, itemId, who);
    if (locked.status === 'done')
      throw new ApiError('conflict', 'The call is done; it cannot be given back.');
    return repo.updateItem(trx, locked.id, { status: 'open', claimed_by: null, claim_expires_at: null });
  });
  return toItem(item, now);
};
