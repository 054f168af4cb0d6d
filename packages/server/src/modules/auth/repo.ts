import type { OrganizationPlan, Role } from '@voice-eval/contract';
import type { Knex } from 'knex';

export type UserRow = {
  id: string;
  email: string;
  name: string;
  first_name: string;
  last_name: string;
  password_hash: string | null;
  email_is_placeholder: boolean;
};

export type MembershipRow = {
  organization_id: string;
  role: Role;
  plan: OrganizationPlan;
  organization_name: string;
};

export type RefreshTokenRow = {
  id: string;
  family_id: string;
  user_id: string;
  organization_id: string;
  used_at: Date | null;
  revoked_at: Date | null;
  expires_at: Date;
};

export const findUserByEmail = (db: Knex, email: string) =>
  db<UserRow>('users').whereRaw('lower(email) = lower(?)', [email]).first();

export const findUserById = (db: Knex, id: string) => db<UserRow>('users').where({ id }).first();

export const insertUser = async (db: Knex, user: Omit<UserRow, 'id'>): Promise<UserRow> => {
  const [row] = await db<UserRow>('users').insert(user).returning('*');
  return row!;
};

export const insertOrganization = async (db: Knex, name: string): Promise<{ id: string }> => {
  const [org] = await db('organizations').insert({ name }).returning(['id']);
  return org;
};

/** Locks the organization's row and returns its plan (undefined for an unknown id). */
export const lockOrganizationPlan = (db: Knex, id: string) =>
  db('organizations').where({ id }).forUpdate().first<{ plan: OrganizationPlan } | undefined>('plan');

export const updateOrganizationPlan = async (db: Knex, id: string, plan: OrganizationPlan) => {
  const [row] = await db('organizations')
    .where({ id })
    .update({ plan, updated_at: db.fn.now() })
    .returning(['id', 'name', 'plan', 'updated_at']);
  return row as { id: string; name: string; plan: OrganizationPlan; updated_at: Date };
};

export const insertMembership = (db: Knex, organizationId: string, userId: string, role: Role) =>
  db('memberships').insert({ organization_id: organizationId, user_id: userId, role });

/** Adds the user to the organization with `role`, or re-activates their membership with that role. */
export const upsertMembership = (db: Knex, organizationId: string, userId: string, role: Role) =>
  db('memberships')
    .insert({ organization_id: organizationId, user_id: userId, role })
    .onConflict(['organization_id', 'user_id'])
    .merge({ role, status: 'active' });

/** The membership of the account with this e-mail in the organization, whatever its status. */
export const findMembershipByEmail = (db: Knex, organizationId: string, email: string) =>
  db('memberships as m')
    .join('users as u', 'u.id', 'm.user_id')
    .where({ 'm.organization_id': organizationId })
    .whereRaw('lower(u.email) = lower(?)', [email])
    .first<{ user_id: string } | undefined>('m.user_id');

/** The user's active membership in one organization, with the organization's plan and name. */
export const findActiveMembership = (db: Knex, userId: string, organizationId: string) =>
  db('memberships as m')
    .join('organizations as o', 'o.id', 'm.organization_id')
    .where({ 'm.user_id': userId, 'm.organization_id': organizationId, 'm.status': 'active' })
    .first<MembershipRow | undefined>('m.organization_id', 'm.role', 'o.plan', 'o.name as organization_name');

/** Every active membership of the user, oldest first. */
export const listActiveMemberships = (db: Knex, userId: string) =>
  db('memberships as m')
    .join('organizations as o', 'o.id', 'm.organization_id')
    .where({ 'm.user_id': userId, 'm.status': 'active' })
    .orderBy([{ column: 'm.created_at' }, { column: 'm.organization_id' }])
    .select<MembershipRow[]>('m.organization_id', 'm.role', 'o.plan', 'o.name as organization_name');

export const insertRefreshToken = (
  db: Knex,
  row: { family_id: string; user_id: string; organization_id: string; token_hash: string; expires_at: Date },
) => db('refresh_tokens').insert(row);

export const findRefreshToken = (db: Knex, tokenHash: string) =>
  db('refresh_tokens').where({ token_hash: tokenHash }).first<RefreshTokenRow | undefined>();

/** Marks a token used, only if nobody used it first (compare-and-set). True when this call won. */
export const claimRefreshToken = async (db: Knex, id: string, now: Date): Promise<boolean> => {
  const count = await db('refresh_tokens')
    .where({ id })
    .whereNull('used_at')
    .whereNull('revoked_at')
    .update({ used_at: now });
  return count === 1;
};

export const revokeRefreshFamily = (db: Knex, familyId: string, now: Date) =>
  db('refresh_tokens').where({ family_id: familyId }).whereNull('revoked_at').update({ revoked_at: now });

/** True when the refresh-token family (a login session) has been revoked. */
export const isRefreshFamilyRevoked = async (db: Knex, familyId: string): Promise<boolean> =>
  Boolean(await db('refresh_tokens').where({ family_id: familyId }).whereNotNull('revoked_at').first('id'));

export const findOrganization = (db: Knex, id: string) =>
  db('organizations').where({ id }).first<{ name: string } | undefined>('name');
