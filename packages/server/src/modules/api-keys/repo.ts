import type { OrganizationPlan } from '@voice-eval/contract';
import type { Knex } from 'knex';

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
