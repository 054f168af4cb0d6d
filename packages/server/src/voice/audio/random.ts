/** A seeded pseudo-random source, so generated audio is the same on every machine and run. */
export type Random = {
  /** Uniform in [0, 1). */
  next(): number;
  /** Standard normal (mean 0, variance 1). */
  gaussian(): number;
};

/** Mulberry32: 32 bits of state, fast, and good enough for noise (not for anything secret). */
export const createRandom = (seed: number): Random => {
  let state = seed >>> 0;
  const next = (): number => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  // Box–Muller; 1 − u keeps the logarithm's argument above zero.
  const gaussian = (): number => Math.sqrt(-2 * Math.log(1 - next())) * Math.cos(2 * Math.PI * next());
  return { next, gaussian };
};
