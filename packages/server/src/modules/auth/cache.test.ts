import { describe, expect, it } from 'vitest';
import { AuthCache } from './cache.js';

describe('AuthCache', () => {
  it('serves an entry for ttlMs, then forgets it', () => {
    const cache = new AuthCache(1000);
    cache.set('apikey:a', { role: 'ADMIN' }, 0);
    expect(cache.get('apikey:a', 999)).toEqual({ role: 'ADMIN' });
    expect(cache.get('apikey:a', 1000)).toBeUndefined();
  });

  it('caches a negative answer (null) apart from a miss (undefined)', () => {
    const cache = new AuthCache();
    cache.set('apikey:revoked', null, 0);
    expect(cache.get('apikey:revoked', 1)).toBeNull();
    expect(cache.get('apikey:unknown', 1)).toBeUndefined();
  });

  it('drops the oldest entry beyond maxEntries, and evicts by prefix', () => {
    const cache = new AuthCache(60_000, 2);
    cache.set('member:u1:o1', 1, 0);
    cache.set('member:u2:o1', 2, 0);
    cache.set('member:u3:o2', 3, 0);
    expect(cache.get('member:u1:o1', 1)).toBeUndefined();
    cache.evict('member:u2');
    expect(cache.get('member:u2:o1', 1)).toBeUndefined();
    expect(cache.get('member:u3:o2', 1)).toBe(3);
  });

  it('lets one use per API key and interval be recorded', () => {
    const cache = new AuthCache();
    expect(cache.shouldRecordUse('k1', 0, 60_000)).toBe(true);
    expect(cache.shouldRecordUse('k1', 59_999, 60_000)).toBe(false);
    expect(cache.shouldRecordUse('k2', 59_999, 60_000)).toBe(true);
    expect(cache.shouldRecordUse('k1', 60_000, 60_000)).toBe(true);
  });
});
