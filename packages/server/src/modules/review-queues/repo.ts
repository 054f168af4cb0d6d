import type { Knex } from 'knex';

type Scope = { organizationId: string; workspaceId: string };

/** A `review_queues` row as read; jsonb columns arrive parsed. */
export type QueueRow = {
  id: string;
  organization_id: string;
  workspace_id: string;
  name: string;
  source: Record<string, string>;
  metric_ids: string[];
  sample_size: number;
  strategy: string;
  seed: number;
  assignees: string[];
  lock_minutes: number;
  status: 'open' | 'completed';
  created_by: string;
  created_at: Date;
  completed_at: Date | null;
};

/** A `review_items` row as read. */
export type ItemRow = {
  id: string;
  queue_id: string;
  position: number;
  call_import_row_id: string;
  call_import_id: string;
  conversation_id: string;
  status: 'open' | 'claimed' | 'done';
  claimed_by: string | null;
  claim_expires_at: Date | null;
  done_by: string | null;
  done_at: Date | null;
};

export type Counts = { total: number; open: number; claimed: number; done: number };

const queues = (db: Knex, scope: Scope) =>
  db('review_queues').where({ organization_id: scope.organizationId, workspace_id: scope.workspaceId });

/** Stores a queue and its items (positions from 1) in the caller's transaction. */
export const insertQueue = async (
  trx: Knex,
  queue: Omit<QueueRow, 'id' | 'status' | 'created_at' | 'completed_at'> & { created_at: Date },
  items: ReadonlyArray<Pick<ItemRow, 'call_import_row_id' | 'call_import_id' | 'conversation_id'>>,
): Promise<QueueRow> => {
  const [row] = await trx('review_queues')
    .insert({
      ...queue,
      source: JSON.stringify(queue.source),
      metric_ids: JSON.stringify(queue.metric_ids),
      assignees: JSON.stringify(queue.assignees),
    })
    .returning('*');
  const created = row as QueueRow;
  for (let i = 0; i < items.length; i += 500) {
    await trx('review_items').insert(
      items.slice(i, i + 500).map((item, j) => ({ ...item, queue_id: created.id, position: i + j + 1 })),
    );
  }
  return created;
};

export const findQueue = (db: Knex, scope: Scope, id: string): Promise<QueueRow | undefined> =>
  queues(db, scope).where({ id }).first();

/** The workspace's queues, for `paginate`. */
export const queuesQuery = (db: Knex, scope: Scope) => queues(db, scope);

export const deleteQueue = (db: Knex, scope: Scope, id: string) => queues(db, scope).where({ id }).delete();

/** Items by state per queue; a claim that expired by `now` counts as open. */
export const countsOf = async (
  db: Knex,
  queueIds: readonly string[],
  now: Date,
): Promise<Map<string, Counts>> => {
  const counts = new Map<string, Counts>(
    queueIds.map((id) => [id, { total: 0, open: 0, claimed: 0, done: 0 }]),
  );
  if (queueIds.length === 0) return counts;
  const rows: Array<{ queue_id: string; state: keyof Counts; n: number | string }> = await db('review_items')
    .whereIn('queue_id', [...queueIds])
    .groupBy('queue_id', 'state')
    .select(
      'queue_id',
      db.raw("case when status = 'claimed' and claim_expires_at <= ? then 'open' else status end as state", [
        now,
      ]),
      db.raw('count(*) as n'),
    );
  for (const row of rows) {
    const entry = counts.get(row.queue_id)!;
    entry[row.state] += Number(row.n);
    entry.total += Number(row.n);
  }
  return counts;
};

/** A queue's items, filtered by state as the API reads it, for `paginate` (ordered by position). */
export const itemsQuery = (db: Knex, queueId: string, status: ItemRow['status'] | undefined, now: Date) => {
  const query = db('review_items').where({ queue_id: queueId });
  if (status === 'done') query.andWhere({ status: 'done' });
  if (status === 'claimed') query.andWhere({ status: 'claimed' }).andWhere('claim_expires_at', '>', now);
  if (status === 'open')
    query.andWhere((w) =>
      w
        .where({ status: 'open' })
        .orWhere((c) => c.where({ status: 'claimed' }).andWhere('claim_expires_at', '<=', now)),
    );
  return query;
};

/** The unexpired claim `who` holds in the queue, if any. */
export const heldBy = (trx: Knex, queueId: string, who: string, now: Date): Promise<ItemRow | undefined> =>
  trx('review_items')
    .where({ queue_id: queueId, status: 'claimed', claimed_by: who })
    .andWhere('claim_expires_at', '>', now)
    .orderBy('position')
    .first();

/**
 * Claims the first item in order that is open (or whose claim expired) for `who` until `until`;
 * a row another transaction is claiming is skipped, so two reviewers never get the same item.
 */
export const claimNext = async (
  trx: Knex,
  queueId: string,
  who: string,
  now: Date,
  until: Date,
): Promise<ItemRow | undefined> => {
  const candidate = trx('review_items')
    .select('id')
    .where({ queue_id: queueId })
    .andWhere((w) =>
      w
        .where({ status: 'open' })
        .orWhere((c) => c.where({ status: 'claimed' }).andWhere('claim_expires_at', '<=', now)),
    )
    .orderBy('position')
    .limit(1)
    .forUpdate()
    .skipLocked();
  const [row] = await trx('review_items')
    .whereIn('id', candidate)
    .update({ status: 'claimed', claimed_by: who, claim_expires_at: until })
    .returning('*');
  return row as ItemRow | undefined;
};

/** Extends a claim its holder came back for. */
export const renewClaim = async (trx: Knex, id: string, until: Date): Promise<ItemRow> => {
  const [row] = await trx('review_items').where({ id }).update({ claim_expires_at: until }).returning('*');
  return row as ItemRow;
};

export const findItem = (db: Knex, queueId: string, id: string): Promise<ItemRow | undefined> =>
  db('review_items').where({ queue_id: queueId, id }).first();

export const lockItem = (trx: Knex, queueId: string, id: string): Promise<ItemRow | undefined> =>
  trx('review_items').where({ queue_id: queueId, id }).forUpdate().first();

export const updateItem = async (trx: Knex, id: string, patch: Partial<ItemRow>): Promise<ItemRow> => {
  const [row] = await trx('review_items').where({ id }).update(patch).returning('*');
  return row as ItemRow;
};

/** How many of the queue's items are not done. */
export const notDone = async (trx: Knex, queueId: string): Promise<number> => {
  const [row] = await trx('review_items')
    .where({ queue_id: queueId })
    .whereNot({ status: 'done' })
    .count({ n: '*' });
  return Number(row?.n ?? 0);
};

/** Marks a queue completed, once: false when another transaction did first. */
export const completeQueue = async (trx: Knex, id: string, at: Date): Promise<boolean> =>
  (await trx('review_queues')
    .where({ id, status: 'open' })
    .update({ status: 'completed', completed_at: at })) > 0;
