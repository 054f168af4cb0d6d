import type { Knex } from 'knex';

export type AiProviderRow = {
  id: string;
  organization_id: string;
  provider: string;
  name: string;
  api_key_sealed: string | null;
  api_key_hint: string | null;
  endpoint_url: string | null;
  is_active: boolean;
  is_default: boolean;
  routing_mode: string;
  gateway_model: string | null;
  gateway_interface: string;
  gateway_base_url: string | null;
  gateway_auth_header: string | null;
  gateway_auth_secret_sealed: string | null;
  gateway_auth_secret_env: string | null;
  gateway_extra_headers: Record<string, string>;
  enabled_models: string[];
  last_tested_at: Date | null;
  created_by: string;
  created_at: Date;
  updated_at: Date;
};

/** Columns as written: jsonb values go in as JSON text (pg would turn arrays into SQL arrays). */
export type AiProviderWrite = Partial<
  Omit<AiProviderRow, 'gateway_extra_headers' | 'enabled_models' | 'created_at' | 'updated_at'>
> & { gateway_extra_headers?: string; enabled_models?: string };

const table = (db: Knex) => db<AiProviderRow>('ai_providers');

export const findProvider = (db: Knex, organizationId: string, id: string) =>
  table(db).where({ organization_id: organizationId, id }).first();

/** Locks the row for the rest of the transaction. */
export const findProviderForUpdate = (db: Knex, organizationId: string, id: string) =>
  table(db).where({ organization_id: organizationId, id }).forUpdate().first();

/** The organization's credentials matching the filters, unordered: see `paginate`. */
export const providersQuery = (
  db: Knex,
  organizationId: string,
  filters: { provider?: string; is_active?: boolean },
) => {
  const base = db('ai_providers').where({ organization_id: organizationId });
  if (filters.provider) base.andWhere('provider', filters.provider.trim().toLowerCase());
  if (filters.is_active !== undefined) base.andWhere('is_active', filters.is_active);
  return base;
};

/** Active credentials, the default first, then oldest first (the gateway's order of preference). */
export const activeProviders = (db: Knex, organizationId: string) =>
  table(db)
    .where({ organization_id: organizationId, is_active: true })
    .orderBy([
      { column: 'is_default', order: 'desc' },
      { column: 'created_at', order: 'asc' },
      { column: 'id', order: 'asc' },
    ]);

export const countProviders = async (db: Knex, organizationId: string): Promise<number> => {
  const [row] = await table(db).where({ organization_id: organizationId }).count({ n: '*' });
  return Number(row?.n ?? 0);
};

export const insertProvider = async (db: Knex, row: AiProviderWrite): Promise<AiProviderRow> => {
  const [created] = await table(db)
    .insert(row as never)
    .returning('*');
  return created as AiProviderRow;
};

export const updateProvider = async (
  db: Knex,
  organizationId: string,
  id: string,
  patch: AiProviderWrite,
): Promise<AiProviderRow | undefined> => {
  const [row] = await table(db)
    .where({ organization_id: organizationId, id })
    .update({ ...patch, updated_at: db.fn.now() } as never)
    .returning('*');
  return row as AiProviderRow | undefined;
};

export const deleteProvider = (db: Knex, organizationId: string, id: string) =>
  table(db).where({ organization_id: organizationId, id }).delete();

/** Clears the organization's default flag (before another row takes it). */
export const clearDefault = (db: Knex, organizationId: string) =>
  table(db).where({ organization_id: organizationId, is_default: true }).update({ is_default: false });

export const touchTested = (db: Knex, id: string, at: Date) =>
  table(db).where({ id }).update({ last_tested_at: at });

/** True when a voice bundle of the organization names the credential in one of its `*_credential_id` columns. */
export const usedByVoiceBundles = async (db: Knex, organizationId: string, id: string): Promise<boolean> => {
  const row = await db('voice_bundles')
    .where({ organization_id: organizationId })
    .andWhere((w) =>
      w
        .where('stt_credential_id', id)
        .orWhere('llm_credential_id', id)
        .orWhere('tts_credential_id', id)
        .orWhere('s2s_credential_id', id),
    )
    .first('id');
  return Boolean(row);
};
