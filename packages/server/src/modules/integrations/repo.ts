import type { Knex } from 'knex';

export type IntegrationRow = {
  id: string;
  organization_id: string;
  platform: string;
  name: string;
  public_key: string | null;
  secret_key_sealed: string;
  is_active: boolean;
  is_default: boolean;
  routing_mode: string;
  last_tested_at: Date | null;
  agent_id: string | null;
  ingest_token_sealed: string | null;
  last_received_at: Date | null;
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
