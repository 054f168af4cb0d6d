import type { OrganizationPlan, Role } from '@voice-eval/contract';
import type { Principal } from '../../context.js';
import type { Deps } from '../../deps.js';
import { defaultWorkspaceId } from '../workspaces/service.js';
import { findActiveMembership, findUserById, isRefreshFamilyRevoked } from './repo.js';
import { verifyAccessToken } from './tokens.js';

/** A caller whose credentials checked out, before workspace resolution. */
export type Authenticated = {
  principal: Principal;
  organizationId: string;
  role: Role;
  plan: OrganizationPlan;
  defaultWorkspaceId: string;
};

/** API keys act with this role in their organization (documented in the README). */
export const API_KEY_ROLE: Role = 'ADMIN';

/** The cache key of a session's revocation state; the auth service evicts it on logout. */
export const sessionCacheKey = (familyId: string): string => `session:${familyId}`;

/**
 * Whether the session (refresh-token family) of an access token is still open, cached like the
 * membership: a logout or a reuse detection ends its access tokens at once on the instance that
 * saw it and within the cache's `ttlMs` on the others, instead of at their expiry.
 */
const sessionIsOpen = async (deps: Deps, familyId: string | undefined, now: number): Promise<boolean> => {
  if (familyId === undefined) return true;
  const cacheKey = sessionCacheKey(familyId);
  const cached = deps.authCache.get<boolean>(cacheKey, now);
  if (cached !== undefined) return cached;
  const open = !(await isRefreshFamilyRevoked(deps.db, familyId));
  deps.authCache.set(cacheKey, open, now);
  return open;
};

/**
 * Resolves a bearer access token: a valid signature, an open session, then an active membership
 * in its organization.
 */
export const authenticateBearer = async (deps: Deps, token: string): Promise<Authenticated | null> => {
  const now = deps.now();
  const claims = await verifyAccessToken(deps.config.jwtSecret, token, now);
  if (!claims) return null;
  const [open, member] = await Promise.all([
    sessionIsOpen(deps, claims.sessionId, now.getTime()),
    resolveMember(deps, claims.userId, claims.organizationId, now),
  ]);
  return open ? member : null;
};

const resolveMember = async (
  deps: Deps,
  userId: string,
  organizationId: string,
  now: Date,
): Promise<Authenticated | null> => {
  const claims = { userId, organizationId };
  const cacheKey = `member:${claims.userId}:${claims.organizationId}`;
  const cached = deps.authCache.get<Authenticated | null>(cacheKey, now.getTime());
  if (cached !== undefined) return cached;
  const [membership, user] = await Promise.all([
    findActiveMembership(deps.db, claims.userId, claims.organizationId),
    findUserById(deps.db, claims.userId),
  ]);
  const resolved: Authenticated | null =
    membership && user
      ? {
          principal: { kind: 'user', userId: user.id, email: user.email },
          organizationId: membership.organization_id,
          role: membership.role,
          plan: membership.plan,
          defaultWorkspaceId: await defaultWorkspaceId(deps.db, membership.organization_id),
        }
      : null;
  deps.authCache.set(cacheKey, resolved, now.getTime());
  return resolved;
};

/** True when the workspace belongs to the organization (cached like credentials). */
export const workspaceBelongsTo = async (
  deps: Deps,
  organizationId: string,
  workspaceId: string,
): Promise<boolean> => {
  const now = deps.now().getTime();
  const cacheKey = `ws:${organizationId}:${workspaceId}`;
  const cached = deps.authCache.get<boolean>(cacheKey, now);
  if (cached !== undefined) return cached;
  const row = await deps
    .db('workspaces')
    .where({ id: workspaceId, organization_id: organizationId })
    .first('id');
  deps.authCache.set(cacheKey, Boolean(row), now);
  return Boolean(row);
};
