import { createHash, randomInt } from 'node:crypto';

const PREFIX = 've_live_';
const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
const RANDOM_LENGTH = 32;
const CHECKSUM_LENGTH = 6;
/** The part of a key stored in clear and shown in lists: `ve_live_` + 8 random characters. */
const LOOKUP_LENGTH = PREFIX.length + 8;

const checksum = (random: string): string => {
  const digest = createHash('sha256').update(random).digest();
  let out = '';
  for (let i = 0; i < CHECKSUM_LENGTH; i++) out += BASE62[digest[i]! % 62];
  return out;
};

/** A new API key `ve_live_<32 random base62><6 checksum>` and its lookup prefix. */
export const generateApiKey = (): { key: string; prefix: string } => {
  let random = '';
  for (let i = 0; i < RANDOM_LENGTH; i++) random += BASE62[randomInt(62)];
  const key = `${PREFIX}${random}${checksum(random)}`;
  return { key, prefix: key.slice(0, LOOKUP_LENGTH) };
};

/**
 * The lookup prefix of a well-formed key, or null. The checksum rejects typos and random strings
 * without a database round trip.
 */
export const parseApiKey = (key: string): { prefix: string } | null => {
  if (!key.startsWith(PREFIX) || key.length !== PREFIX.length + RANDOM_LENGTH + CHECKSUM_LENGTH) return null;
  const random = key.slice(PREFIX.length, PREFIX.length + RANDOM_LENGTH);
  if (!/^[0-9A-Za-z]+$/.test(random) || checksum(random) !== key.slice(-CHECKSUM_LENGTH)) return null;
  return { prefix: key.slice(0, LOOKUP_LENGTH) };
};
