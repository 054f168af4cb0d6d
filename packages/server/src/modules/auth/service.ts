import { randomUUID } from 'node:crypto';
import type {
  AuthConfig,
  LoginBody,
  Me,
  OrganizationPlan,
  Role,
  Session,
  SignupBody,
  SwitchOrgBody,
  User,
} from '@voice-eval/contract';
import type { Knex } from 'knex';
import type { RequestContext } from '../../context.js';
import type { Deps } from '../../deps.js';
import { ApiError } from '../../errors.js';
import { createDefaultWorkspace, getWorkspace } from '../workspaces/service.js';
import { sessionCacheKey } from './credentials.js';
import { hashPassword, verifyPassword } from './passwords.js';
import * as repo from './repo.js';
import { newRefreshToken, sha256, signAccessToken } from './tokens.js';

const INVALID_LOGIN = 'The e-mail or password is incorrect.';

/** The public authentication configuration. */
export const authConfig = (deps: Deps): AuthConfig => ({
  signup_enabled: deps.config.signupEnabled,
  password_login_enabled: true,
  sso_providers: [],
  access_token_ttl_seconds: deps.config.accessTokenTtlSeconds,
  api_key_headers: ['x-api-key', 'x-service-api-key'],
});

const splitName = (name: string) => {
  const [first = '', ...rest] = name.trim().split(/\s+/);
  return { first_name: first, last_name: rest.join(' ') };
};

/** A user row as the wire's User, acting in `organizationId` with `role`. */
const toUser = (user: repo.UserRow, organizationId: string, role: Role): User => ({
  id: user.id,
  email: user.email,
  name: user.name,
  first_name: user.first_name,
  last_name: user.last_name,
  organization_id: organizationId,
  role,
  has_password: user.password_hash !== null,
  email_is_placeholder: user.email_is_placeholder,
});

/**
 * Drops this instance's cached state of a session, so its access tokens fail here at once; other
 * instances see the revocation when their cache entry expires (`AuthCache.ttlMs`).
 */
const forgetSession = (deps: Deps, familyId: string): void => deps.authCache.evict(sessionCacheKey(familyId));

/** Issues an access token and a refresh token (a new family unless one is given) for one membership. */
export const issueSession = async (
  deps: Deps,
  db: Knex,
  user: repo.UserRow,
  membership: repo.MembershipRow,
  familyId: string = randomUUID(),
): Promise<Session> => {
  const now = deps.now();
  const refreshToken = newRefreshToken();
  await repo.insertRefreshToken(db, {
    family_id: familyId,
    user_id: user.id,
    organization_id: membership.organization_id,
    token_hash: sha256(refreshToken),
    expires_at: new Date(now.getTime() + deps.config.refreshTokenTtlSeconds * 1000),
  });
  const ttl = deps.config.accessTokenTtlSeconds;
  return {
    access_token: await signAccessToken(
      deps.config.jwtSecret,
      { userId: user.id, organizationId: membership.organization_id, sessionId: familyId },
      ttl,
      now,
    ),
    refresh_token: refreshToken,
    token_type: 'Bearer',
    expires_in: ttl,
    user: toUser(user, membership.organization_id, membership.role),
  };
};

/**
 * Creates the user, an organization with its default workspace, and an OWNER membership.
 * An e-mail already registered gets the same 409 whatever its password, so signup reveals only
 * what a login attempt would.
 */
export const signup = async (deps: Deps, body: SignupBody): Promise<Session> => {
  if (!deps.config.signupEnabled) throw new ApiError('forbidden', 'Signup is disabled on this server.');
  const passwordHash = await hashPassword(body.password, deps.config.passwordHashCost);
  const name = body.name ?? body.email.split('@')[0]!;
  return deps.db.transaction(async (trx) => {
    if (await repo.findUserByEmail(trx, body.email)) {
      throw new ApiError('conflict', 'This e-mail cannot be used to sign up. Log in instead.');
    }
    const user = await repo.insertUser(trx, {
      email: body.email,
      name,
      ...splitName(name),
      password_hash: passwordHash,
      email_is_placeholder: false,
    });
    const org = await createOrganization(trx, body.organization_name ?? `${name}'s organization`);
    await repo.insertMembership(trx, org.id, user.id, 'OWNER');
    const membership = await repo.findActiveMembership(trx, user.id, org.id);
    return issueSession(deps, trx, user, membership!);
  });
};

/** Creates an organization with its default workspace (inside the caller's transaction). */
export const createOrganization = async (db: Knex, name: string): Promise<{ id: string }> => {
  const org = await repo.insertOrganization(db, name);
  await createDefaultWorkspace(db, org.id);
  return org;
};

/** Password login; every failure is the same 401 so no account can be discovered. */
export const login = async (deps: Deps, body: LoginBody): Promise<Session> => {
  const user = await repo.findUserByEmail(deps.db, body.email);
  const ok = await verifyPassword(body.password, user?.password_hash ?? null, deps.config.passwordHashCost);
  if (!user || !ok) throw new ApiError('unauthenticated', INVALID_LOGIN);
  const memberships = await repo.listActiveMemberships(deps.db, user.id);
  const membership = body.organization_id
    ? memberships.find((m) => m.organization_id === body.organization_id)
    : memberships[0];
  if (!membership) throw new ApiError('unauthenticated', INVALID_LOGIN);
  return issueSession(deps, deps.db, user, membership);
};

/**
 * Rotates a refresh token. A token presented a second time means it leaked: the whole family
 * is revoked and the caller must log in again.
 */
export const refresh = async (deps: Deps, refreshToken: string): Promise<Session> => {
  const now = deps.now();
  const invalid = new ApiError('unauthenticated', 'The refresh token is invalid, expired or revoked.');
  const row = await repo.findRefreshToken(deps.db, sha256(refreshToken));
  if (!row || row.revoked_at || row.expires_at <= now) throw invalid;
  if (row.used_at || !(await repo.claimRefreshToken(deps.db, row.id, now))) {
    await repo.revokeRefreshFamily(deps.db, row.family_id, now);
    forgetSession(deps, row.family_id);
    deps.logger.warn({ familyId: row.family_id, userId: row.user_id }, 'refresh_token:reused');
    throw invalid;
  }
  const [user, membership] = await Promise.all([
    repo.findUserById(deps.db, row.user_id),
    repo.findActiveMembership(deps.db, row.user_id, row.organization_id),
  ]);
  if (!user || !membership) throw invalid;
  return issueSession(deps, deps.db, user, membership, row.family_id);
};

/** Revokes the family of a refresh token; unknown tokens are ignored (logout always succeeds). */
export const logout = async (deps: Deps, refreshToken: string): Promise<void> => {
  const row = await repo.findRefreshToken(deps.db, sha256(refreshToken));
  if (!row) return;
  await repo.revokeRefreshFamily(deps.db, row.family_id, deps.now());
  forgetSession(deps, row.family_id);
};

/** A session in another organization: interactive users with an active membership only. */
export const switchOrg = async (deps: Deps, ctx: RequestContext, body: SwitchOrgBody): Promise<Session> => {
  if (ctx.principal.kind !== 'user') {
    throw new ApiError(
      'interactive_user_required',
      'API keys are bound to one organization and cannot switch.',
    );
  }
  const [user, membership] = await Promise.all([
    repo.findUserById(deps.db, ctx.principal.userId),
    repo.findActiveMembership(deps.db, ctx.principal.userId, body.organization_id),
  ]);
  if (!user || !membership) throw new ApiError('not_found', 'Organization not found');
  return issueSession(deps, deps.db, user, membership);
};

/** The caller, its organization, workspace and memberships. */
export const me = async (deps: Deps, ctx: RequestContext): Promise<Me> => {
  const [org, workspace] = await Promise.all([
    deps.db('organizations').where({ id: ctx.organizationId }).first('id', 'name', 'plan'),
    getWorkspace(deps, ctx, ctx.workspaceId),
  ]);
  const base = { role: ctx.role, organization: org, workspace };
  if (ctx.principal.kind === 'api_key') {
    const { apiKeyId, name, prefix } = ctx.principal;
    return {
      ...base,
      principal_type: 'api_key',
      user: null,
      api_key: { id: apiKeyId, name, prefix },
      memberships: [],
    };
  }
  if (ctx.principal.kind !== 'user')
    throw new ApiError('interactive_user_required', 'No caller to describe.');
  const user = (await repo.findUserById(deps.db, ctx.principal.userId))!;
  const memberships = await repo.listActiveMemberships(deps.db, user.id);
  return {
    ...base,
    principal_type: 'user',
    api_key: null,
    user: toUser(user, ctx.organizationId, ctx.role),
    memberships: memberships.map((m) => ({
      organization_id: m.organization_id,
      organization_name: m.organization_name,
      plan: m.plan,
      role: m.role,
    })),
  };
};

/** An account as the auth module stores it. */
export type Account = repo.UserRow;

/** The account of an e-mail, if one exists. */
export const findAccount = (db: Knex, email: string): Promise<Account | undefined> =>
  repo.findUserByEmail(db, email);

/** Whether the account with this e-mail belongs to the organization. */
export const isMember = async (db: Knex, organizationId: string, email: string): Promise<boolean> =>
  (await repo.findMembershipByEmail(db, organizationId, email)) !== undefined;

/**
 * Makes an account a member of the organization with `role` (creating the account when there is
 * none, with the given password hash) and signs it in there, inside the caller's transaction.
 */
export const joinOrganization = async (
  deps: Deps,
  trx: Knex,
  join: {
    account: Account | undefined;
    email: string;
    name: string;
    passwordHash: string | null;
    organizationId: string;
    role: Role;
  },
): Promise<Session> => {
  const user =
    join.account ??
    (await repo.insertUser(trx, {
      email: join.email,
      name: join.name,
      ...splitName(join.name),
      password_hash: join.passwordHash,
      email_is_placeholder: false,
    }));
  await repo.upsertMembership(trx, join.organizationId, user.id, join.role);
  deps.authCache.evict(`member:${user.id}:`);
  const membership = await repo.findActiveMembership(trx, user.id, join.organizationId);
  return issueSession(deps, trx, user, membership!);
};

/** Sets an organization's plan; returns the plan before and the row after (undefined for an unknown id). */
export const setOrganizationPlan = (db: Knex, organizationId: string, plan: OrganizationPlan) =>
  db.transaction(async (trx) => {
    const current = await repo.lockOrganizationPlan(trx, organizationId);
    if (!current) return undefined;
    return { previous: current.plan, updated: await repo.updateOrganizationPlan(trx, organizationId, plan) };
  });

/** An organization's name, or undefined for an unknown id. */
export const findOrganization = (db: Knex, organizationId: string) =>
  repo.findOrganization(db, organizationId);
