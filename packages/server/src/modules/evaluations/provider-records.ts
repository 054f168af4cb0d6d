import type { Deps } from '../../deps.js';
import type { AiProviderRecord } from '../../providers/index.js';
import { listProviderRecords } from '../ai-providers/service.js';

/** An organization's usable AI provider records (what `deps.providers.forOrganization` takes). */
export type ProviderRecordsSource = (organizationId: string) => Promise<AiProviderRecord[]>;

/**
 * The organization's provider records, each read at most once per `ttlMs` by one worker: an
 * evaluation scores many rows in a row, and the credentials rarely change meanwhile. A provider
 * changed, deactivated or deleted takes effect on rows this worker starts after the entry expires.
 */
export const cachedProviderRecords = (deps: Deps, ttlMs = 5_000): ProviderRecordsSource => {
  const entries = new Map<string, { until: number; records: Promise<AiProviderRecord[]> }>();
  return (organizationId) => {
    const now = Date.now();
    const hit = entries.get(organizationId);
    if (hit && hit.until > now) return hit.records;
    for (const [key, entry] of entries) if (entry.until <= now) entries.delete(key);
    const records = listProviderRecords(deps, organizationId);
    entries.set(organizationId, { until: now + ttlMs, records });
    // a failed read is not cached
    records.catch(() => entries.delete(organizationId));
    return records;
  };
};
