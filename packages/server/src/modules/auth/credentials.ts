import type { OrganizationPlan, Role } from '@voice-eval/contract';
import type { Principal } from '../../context.js';
import type { Deps } from '../../deps.js';
import { parseApiKey } from './api-key-format.js';
import { findActiveMembership, findUserById, isRefreshFamilyRevoked } from './repo.js';
import { sha256, verifyAccessToken } from './tokens.js';

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

/** How often, at most, one instance writes an API key's `last_used_at`. */
const LAST_USED_WRITE_INTERVAL_MS = 60_000;

const defaultWorkspaceOf = async (deps: Deps, organizationId: string): Promise<string> => {
  const row = await deps
    .db('workspaces')
    .where({ organization_id: organizationId, is_default: true })
    .first('id');
  return row.id;
};

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
          defaultWorkspaceId: await defaultWorkspaceOf(deps, membership.organization_id),
        }
      : null;
  deps.authCache.set(cacheKey, resolved, now.getTime());
  return resolved;
};

/**
 * Resolves an organization API key by its prefix, then its SHA-256 hash; revoked keys are refused.
 * The cache is keyed by that hash, so a cached key costs one hash and no checksum check.
 */
export const authenticateApiKey = async (deps: Deps, key: string): Promise<Authenticated | null> => {
  const now = deps.now();
  const hash = sha256(key);
  const cacheKey = `apikey:${hash}`;
  let resolved = deps.authCache.get<(Authenticated & { apiKeyId: string }) | null>(cacheKey, now.getTime());
  if (resolved === undefined) {
    const parsed = parseApiKey(key);
    if (!parsed) return null;
    const row = await deps
      .db('api_keys as k')
      .join('organizations as o', 'o.id', 'k.organization_id')
      .where({ 'k.prefix': parsed.prefix })
      .whereNull('k.revoked_at')
      .first('k.id', 'k.name', 'k.prefix', 'k.key_hash', 'k.organization_id', 'o.plan');
    resolved =
      row && row.key_hash === hash
        ? {
            apiKeyId: row.id,
            principal: { kind: 'api_key', apiKeyId: row.id, name: row.name, prefix: row.prefix },
            organizationId: row.organization_id,
            role: API_KEY_ROLE,
            plan: row.plan,
            defaultWorkspaceId: await defaultWorkspaceOf(deps, row.organization_id),
          }
        : null;
    deps.authCache.set(cacheKey, resolved, now.getTime());
  }
  if (resolved) recordApiKeyUse(deps, resolved.apiKeyId, now);
  return resolved;
};

/** Writes `last_used_at` at most once a minute per key and instance, off the request path. */
const recordApiKeyUse = (deps: Deps, apiKeyId: string, now: Date): void => {
  if (!deps.authCache.shouldRecordUse(apiKeyId, now.getTime(), LAST_USED_WRITE_INTERVAL_MS)) return;
  deps
    .db('api_keys')
    .where({ id: apiKeyId })
    .update({ last_used_at: now })
    .catch((err: unknown) => deps.logger.warn({ err, apiKeyId }, 'api_key:last_used_write_failed'));
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
