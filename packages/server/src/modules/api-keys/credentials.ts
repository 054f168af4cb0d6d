import type { Deps } from '../../deps.js';
import { parseApiKey } from '../auth/api-key-format.js';
import { API_KEY_ROLE, type Authenticated } from '../auth/credentials.js';
import { sha256 } from '../auth/tokens.js';
import { defaultWorkspaceId } from '../workspaces/service.js';
import * as repo from './repo.js';

/** How often, at most, one instance writes an API key's `last_used_at`. */
const LAST_USED_WRITE_INTERVAL_MS = 60_000;

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
    const row = await repo.findActiveByPrefix(deps.db, parsed.prefix);
    resolved =
      row && row.key_hash === hash
        ? {
            apiKeyId: row.id,
            principal: { kind: 'api_key', apiKeyId: row.id, name: row.name, prefix: row.prefix },
            organizationId: row.organization_id,
            role: API_KEY_ROLE,
            plan: row.plan,
            defaultWorkspaceId: await defaultWorkspaceId(deps.db, row.organization_id),
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
  repo
    .touchLastUsed(deps.db, apiKeyId, now)
    .catch((err: unknown) => deps.logger.warn({ err, apiKeyId }, 'api_key:last_used_write_failed'));
};
