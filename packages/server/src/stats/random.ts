/**
 * A small seeded random number generator, so that whatever the statistics draw (bootstrap
 * resamples, simulated labels) comes out the same for the same seed: a report recomputed from the
 * same labels shows the same interval, and a test fails the same way every time.
 *
 * The generator is xoshiro128** (Blackman and Vigna, 2018): 128 bits of state, period 2^128 - 1,
 * fast on 32-bit integer arithmetic. Its state is filled from the seed by SplitMix64, as its
 * authors recommend, so nearby seeds (1, 2, 3, ...) give unrelated streams. Not for secrets.
 */

/** A stream of pseudo-random numbers. */
export type Random = {
  /** The next 32-bit unsigned integer, uniform in [0, 2^32). */
  uint32: () => number;
  /** The next float, uniform in [0, 1): a multiple of 2^-32. */
  float: () => number;
  /** The next integer, uniform in [0, bound), for an integer bound from 1 to 2^32 (no modulo bias). */
  int: (bound: number) => number;
};

const TWO_32 = 2 ** 32;
const MASK_64 = (1n << 64n) - 1n;

/** SplitMix64 (Steele, Lea and Flood, 2014) from state `x`: the next state and its output. */
const splitMix64 = (x: bigint): [bigint, bigint] => {
  const next = (x + 0x9e3779b97f4a7c15n) & MASK_64;
  let z = next;
  z = ((z ^ (z >> 30n)) * 0xbf58476d1ce4e5b9n) & MASK_64;
  z = ((z ^ (z >> 27n)) * 0x94d049bb133111ebn) & MASK_64;
  return [next, z ^ (z >> 31n)];
};

const rotl = (x: number, k: number): number => (x << k) | (x >>> (32 - k));

/**
 * A generator seeded with `seed`, any safe integer (negative seeds are read as their 64-bit two's
 * complement). Two generators with the same seed give the same stream.
 */
export const seededRandom = (seed: number): Random => {
  if (!Number.isSafeInteger(seed)) throw new RangeError(`seed must be a safe integer, got ${seed}`);
  const [x1, first] = splitMix64(BigInt.asUintN(64, BigInt(seed)));
  const [, second] = splitMix64(x1);
  // the low then the high half of each 64-bit output; SplitMix64 is a bijection, so two
  // consecutive outputs are never both zero and the state never is all zero
  let s0 = Number(first & 0xffffffffn) | 0;
  let s1 = Number(first >> 32n) | 0;
  let s2 = Number(second & 0xffffffffn) | 0;
  let s3 = Number(second >> 32n) | 0;

  const uint32 = (): number => {
    const result = Math.imul(rotl(Math.imul(s1, 5), 7), 9) >>> 0;
    const t = s1 << 9;
    s2 ^= s0;
    s3 ^= s1;
    s1 ^= s2;
    s0 ^= s3;
    s2 ^= t;
    s3 = rotl(s3, 11);
    return result;
  };

  const int = (bound: number): number => {
    if (!Number.isInteger(bound) || bound < 1 || bound > TWO_32) {
      throw new RangeError(`bound must be an integer from 1 to 2^32, got ${bound}`);
    }
    // reject the top TWO_32 % bound values, which would make the low residues more likely
    const limit = TWO_32 - (TWO_32 % bound);
    for (;;) {
      const x = uint32();
      if (x < limit) return x % bound;
    }
  };

  return { uint32, float: () => uint32() / TWO_32, int };
};

/** The items in a random order (Fisher-Yates with `random`): the same seed gives the same order. */
export const shuffled = <T>(items: readonly T[], random: Pick<Random, 'int'>): T[] => {
  const out = [...items];
  for (let i = out.length - 1; i > 0; i--) {
    const j = random.int(i + 1);
    [out[i], out[j]] = [out[j]!, out[i]!];
  }
  return out;
};
