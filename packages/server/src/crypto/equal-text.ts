import { createHash, timingSafeEqual } from 'node:crypto';

const digest = (text: string) => createHash('sha256').update(text, 'utf8').digest();

/**
 * Whether two secrets (tokens, signatures) are the same text, in time that depends on neither:
 * both are hashed first, so not even their lengths leak.
 */
export const equalText = (given: string, expected: string): boolean =>
  timingSafeEqual(digest(given), digest(expected));
