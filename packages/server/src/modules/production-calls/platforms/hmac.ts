import { createHmac } from 'node:crypto';

/** HMAC of `message` with `key`, hex or base64. */
export const hmac = (
  algorithm: 'sha1' | 'sha256' | 'sha512',
  key: string,
  message: string | Buffer,
  encoding: 'hex' | 'base64' = 'hex',
): string => createHmac(algorithm, key).update(message).digest(encoding);

/** Whether `at` lies within `toleranceMs` of `now`. */
export const fresh = (at: number, now: Date, toleranceMs: number): boolean =>
  Number.isFinite(at) && Math.abs(now.getTime() - at) <= toleranceMs;
