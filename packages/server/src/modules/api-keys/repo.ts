import type { OrganizationPlan } from '@voice-eval/contract';
import type { Knex } from 'knex';

export type ApiKeyRow = {
  id: string;
  name: string;
  prefix: string;
  created_by: string | null;
  created_at: Date;
  last_used_at: Date | null;
  revoked_at: Date | null;
};

/** An unrevoked key by its prefix, with its organization's plan. */
export const findActiveByPrefix = (db: Knex, prefix: string) =>
  db('api_keys as k')
    .join('organizations as o', 'o.id', 'k.organization_id')
    .where({ 'k.prefix': prefix })
    .whereNull('k.revoked_at')
    .first<
      | {
          id: string;
          name: string;
          prefix: string;
          key_hash: string;
          organization_id: string;
          plan: OrganizationPlan;
        }
      | undefined
    >('k.id', 'k.name', 'k.prefix', 'k.key_hash', 'k.organization_id', 'o.plan');

export const touchLastUsed = (db: Knex, id: string, now: Date) =>
  db('api_keys').where({ id }).update({ last_used_at: now });

/** Stores a key as its hash. */
export const insertKey = async (
  db: Knex,
  key: { organization_id: string; name: string; prefix: string; key_hash: string; created_by: string | null },
) => {
  const [row] = await db('api_keys').insert(key).returning(['id', 'name', 'prefix', 'created_at']);
  return row as Pick<ApiKeyRow, 'id' | 'name' | 'prefix' | 'created_at'>;
};

/** The organization's keys, revoked ones too when asked, for paging. */
export const keysQuery = (db: Knex, organizationId: string, includeRevoked: boolean) => {
  const base = db('api_keys').where({ organization_id: organizationId });
  if (!includeRevoked) base.whereNull('revoked_at');
  return base;
};

export const findKey = (db: Knex, organizationId: string, id: string) =>
  db('api_keys')
    .where({ organization_id: organizationId, id })
    .first<Pick<ApiKeyRow, 'id' | 'revoked_at'> | undefined>('id', 'revoked_at');

export const revoke = (db: Knex, id: string, now: Date) =>
  db('api_keys').where({ id }).update({ revoked_at: now });
