/**
 * A small in-process cache of resolved credentials (principal, role, plan), so an authenticated
 * request costs no database round trip in the steady state. Entries live `ttlMs`; revoking a key
 * or changing a membership evicts locally, and other instances see it within `ttlMs`.
 */
export class AuthCache {
  readonly #entries = new Map<string, { value: unknown; expiresAt: number }>();
  /** When this instance last recorded each API key's use, in ms. */
  readonly #usesRecorded = new Map<string, number>();

  constructor(
    readonly ttlMs = 5_000,
    readonly maxEntries = 10_000,
  ) {}

  get<T>(key: string, now: number): T | undefined {
    const entry = this.#entries.get(key);
    if (!entry) return undefined;
    if (entry.expiresAt <= now) {
      this.#entries.delete(key);
      return undefined;
    }
    return entry.value as T;
  }

  set(key: string, value: unknown, now: number): void {
    if (this.#entries.size >= this.maxEntries) {
      const oldest = this.#entries.keys().next().value;
      if (oldest !== undefined) this.#entries.delete(oldest);
    }
    this.#entries.set(key, { value, expiresAt: now + this.ttlMs });
  }

  /**
   * True when this instance has not recorded a use of `apiKeyId` in the last `intervalMs` (and
   * notes that it now does), so `last_used_at` costs one write per key per interval, not one per
   * request.
   */
  shouldRecordUse(apiKeyId: string, now: number, intervalMs: number): boolean {
    if (now - (this.#usesRecorded.get(apiKeyId) ?? Number.NEGATIVE_INFINITY) < intervalMs) return false;
    this.#usesRecorded.set(apiKeyId, now);
    return true;
  }

  /** Drops every entry whose key starts with `prefix` (e.g. one organization's). */
  evict(prefix: string): void {
    for (const key of this.#entries.keys()) if (key.startsWith(prefix)) this.#entries.delete(key);
  }

  clear(): void {
    this.#entries.clear();
  }
}
