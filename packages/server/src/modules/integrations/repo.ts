import type { Knex } from 'knex';

export type IntegrationRow = {
  id: string;
  organization_id: string;
  platform: string;
  name: string;
  public_key: string | null;
  secret_key_sealed: string;
  /** ElevenLabs' API key, sealed; null when none is stored. */
  api_key_sealed: string | null;
  is_active: boolean;
  is_default: boolean;
  routing_mode: string;
  last_tested_at: Date | null;
  agent_id: string | null;
  ingest_token_sealed: string | null;
  last_received_at: Date | null;
  /** When the last poll of the platform's calls started (see `claimDuePolls`). */
  last_polled_at: Date | null;
  /** Where the next poll's window starts; null before the first poll that succeeded. */
  poll_cursor: Date | null;
  last_poll_error: { code: string; message: string; at: string } | null;
  created_by: string;
  created_at: Date;
  updated_at: Date;
};

export type IntegrationWrite = Partial<Omit<IntegrationRow, 'created_at' | 'updated_at'>>;

const table = (db: Knex) => db<IntegrationRow>('integrations');

export const findIntegration = (db: Knex, organizationId: string, id: string) =>
  table(db).where({ organization_id: organizationId, id }).first();

/**
 * An integration by id alone (a platform's delivery names nothing else; its signature is checked
 * next), with the agent its calls are filed under, in one query.
 */
export const findIngestIntegration = (db: Knex, id: string) =>
  db('integrations as i')
    .leftJoin('agents as a', 'a.id', 'i.agent_id')
    .where('i.id', id)
    .first('i.*', 'a.name as agent_name', 'a.workspace_id as agent_workspace_id') as Promise<
    (IntegrationRow & { agent_name: string | null; agent_workspace_id: string | null }) | undefined
  >;

/**
 * Records that a delivery verified, at most once a minute: deliveries arrive many at once, and
 * each writing the one row would queue them all behind its lock.
 */
export const touchReceived = (db: Knex, id: string, at: Date) =>
  table(db)
    .where({ id })
    .where((q) =>
      q.whereNull('last_received_at').orWhere('last_received_at', '<', new Date(at.getTime() - 60_000)),
    )
    .update({ last_received_at: at });

export const findIntegrationForUpdate = (db: Knex, organizationId: string, id: string) =>
  table(db).where({ organization_id: organizationId, id }).forUpdate().first();

/** The organization's integrations matching the filters, unordered: see `paginate`. */
export const integrationsQuery = (
  db: Knex,
  organizationId: string,
  filters: { platform?: string; is_active?: boolean },
) => {
  const base = db('integrations').where({ organization_id: organizationId });
  if (filters.platform) base.andWhere('platform', filters.platform.trim().toLowerCase());
  if (filters.is_active !== undefined) base.andWhere('is_active', filters.is_active);
  return base;
};

export const countForPlatform = async (db: Knex, organizationId: string, platform: string) => {
  const [row] = await table(db).where({ organization_id: organizationId, platform }).count({ n: '*' });
  return Number(row?.n ?? 0);
};

export const insertIntegration = async (db: Knex, row: IntegrationWrite): Promise<IntegrationRow> => {
  const [created] = await table(db)
    .insert(row as never)
    .returning('*');
  return created as IntegrationRow;
};

export const updateIntegration = async (
  db: Knex,
  organizationId: string,
  id: string,
  patch: IntegrationWrite,
): Promise<IntegrationRow | undefined> => {
  const [row] = await table(db)
    .where({ organization_id: organizationId, id })
    .update({ ...patch, updated_at: db.fn.now() } as never)
    .returning('*');
  return row as IntegrationRow | undefined;
};

/** Deletes an integration of the organization; how many rows went (0 or 1). */
export const deleteIntegration = (db: Knex, organizationId: string, id: string): Promise<number> =>
  table(db).where({ organization_id: organizationId, id }).delete();

/** Clears the default flag of the organization's integrations of one platform. */
export const clearDefault = (db: Knex, organizationId: string, platform: string) =>
  table(db)
    .where({ organization_id: organizationId, platform, is_default: true })
    .update({ is_default: false });

/**
 * Takes up to `limit` integrations due for a poll and marks them polled at `now`, in one statement:
 * active ones of the given platforms with an agent (and an API key, for `keyed` platforms), not
 * polled since `dueBefore`, and not in `exclude` (those this instance is still polling). The update
 * re-checks the due time (compare-and-set) and skips rows another instance is taking, so one
 * instance polls an integration per interval.
 */
export const claimDuePolls = async (
  db: Knex,
  platforms: readonly string[],
  now: Date,
  dueBefore: Date,
  limit: number,
  exclude: readonly string[],
  keyed: readonly string[],
): Promise<IntegrationRow[]> => {
  const due = (q: Knex.QueryBuilder) =>
    q.whereNull('last_polled_at').orWhere('last_polled_at', '<=', dueBefore);
  const candidates = db('integrations')
    .select('id')
    .where({ is_active: true })
    .whereNotNull('agent_id')
    .whereIn('platform', platforms as string[])
    .where((q) => q.whereNotIn('platform', keyed as string[]).orWhereNotNull('api_key_sealed'))
    .where(due)
    .whereNotIn('id', exclude as string[])
    .orderByRaw('last_polled_at asc nulls first')
    .limit(limit)
    .forUpdate()
    .skipLocked();
  return (await table(db)
    .whereIn('id', candidates)
    .where(due)
    .update({ last_polled_at: now } as never)
    .returning('*')) as IntegrationRow[];
};

/** Records a poll's outcome: its error (null after a success) and, after a success, the next window's start. */
export const recordPoll = (
  db: Knex,
  id: string,
  outcome: { error: IntegrationRow['last_poll_error']; cursor?: Date },
) =>
  table(db)
    .where({ id })
    .update({
      last_poll_error: outcome.error === null ? null : JSON.stringify(outcome.error),
      ...(outcome.cursor ? { poll_cursor: outcome.cursor } : {}),
    } as never);
