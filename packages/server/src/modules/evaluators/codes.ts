import { randomInt } from 'node:crypto';
import type { Knex } from 'knex';
import { takenCodes } from './repo.js';

/** Crockford base32: no I, L, O or U, so codes read aloud and copy without ambiguity. */
const ALPHABET = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';
const LENGTH = 6;

const randomCode = () =>
  `EV-${Array.from({ length: LENGTH }, () => ALPHABET[randomInt(ALPHABET.length)]).join('')}`;

/**
 * `count` new `evaluator_id` codes (`EV-7K2Q9D`) unused in the organization. Codes are random
 * (32^6 values), checked against existing ones; the unique index settles a concurrent clash.
 */
export const newEvaluatorCodes = async (
  db: Knex,
  organizationId: string,
  count: number,
): Promise<string[]> => {
  const codes = new Set<string>();
  while (codes.size < count) {
    const candidates = Array.from({ length: count - codes.size }, randomCode).filter((c) => !codes.has(c));
    const taken = new Set(await takenCodes(db, organizationId, candidates));
    for (const code of candidates) if (!taken.has(code)) codes.add(code);
  }
  return [...codes];
};
