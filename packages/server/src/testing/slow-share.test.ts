import { describe, expect, it } from 'vitest';
import { isSlowCall, type SlowShare } from './slow-share.js';

/** A run's callSids, as the platform numbers its calls: `run-<id prefix>-0001`… */
const runOf = (prefix: string, calls: number, from = 1) =>
  Array.from({ length: calls }, (_, i) => `run-${prefix}-${String(from + i).padStart(4, '0')}`);

const slowOf = (sids: readonly string[], slow: SlowShare) => sids.filter((sid) => isSlowCall(sid, slow));

describe('isSlowCall', () => {
  it('gives a run of numbered calls the share exactly when calls × share is whole, else one off', () => {
    for (const [share, calls] of [
      [0.5, 10],
      [1 / 3, 15],
      [0.25, 8],
      [0.1, 30],
    ] as const) {
      for (let seed = 0; seed < 20; seed++) {
        const slow = { share, latencyMs: 1800, seed };
        expect(slowOf(runOf(`r${seed}`, calls), slow)).toHaveLength(Math.round(calls * share));
        // any stretch of consecutive calls, rounded down or up
        const stretch = slowOf(runOf(`r${seed}`, 7, 4), slow).length;
        expect(Math.abs(stretch - 7 * share)).toBeLessThan(1);
      }
    }
    expect(slowOf(runOf('all', 12), { share: 1, latencyMs: 1800 })).toHaveLength(12);
    expect(slowOf(runOf('none', 12), { share: 0, latencyMs: 1800 })).toHaveLength(0);
  });

  it('picks about the share of callSids that are not numbered, by their hash', () => {
    const sids = Array.from({ length: 4000 }, (_, i) => `CA${i.toString(16).padStart(8, 'a')}x`);
    const slow = slowOf(sids, { share: 0.3, latencyMs: 1800, seed: 5 });
    // a binomial count: 1200 expected, sd 29
    expect(slow.length).toBeGreaterThan(1080);
    expect(slow.length).toBeLessThan(1320);
  });

  it('answers the same for the same callSid and seed, and another seed picks other calls', () => {
    const run = runOf('1a2b3c4d', 30);
    const slow = { share: 1 / 3, latencyMs: 1800, seed: 7 };
    const picked = slowOf(run, slow);
    expect(slowOf(run, { ...slow })).toEqual(picked);
    expect(run.map((sid) => isSlowCall(sid, slow))).toEqual(run.map((sid) => isSlowCall(sid, slow)));
    const others = [1, 2, 3, 4, 5].map((seed) => slowOf(run, { ...slow, seed }).join());
    expect(new Set([picked.join(), ...others]).size).toBeGreaterThan(1);
    // another run (another prefix) with the same seed is spread from its own start
    const starts = Array.from({ length: 12 }, (_, i) => slowOf(runOf(`run${i}`, 3), slow)[0]!.slice(-4));
    expect(new Set(starts).size).toBeGreaterThan(1);
    // a callSid without a number: fixed by its hash and the seed
    const unnumbered = { share: 0.5, latencyMs: 1800 };
    const bySeed = (seed: number) =>
      ['CA-alpha', 'CA-beta', 'CA-gamma', 'CA-delta', 'CA-omega', 'CA-kappa'].map((sid) =>
        isSlowCall(sid, { ...unnumbered, seed }),
      );
    expect(bySeed(1)).toEqual(bySeed(1));
    expect(new Set([0, 1, 2, 3].map((seed) => bySeed(seed).join())).size).toBeGreaterThan(1);
  });

  it('takes the seed as 0 when none is given', () => {
    const run = runOf('feedface', 20);
    expect(slowOf(run, { share: 0.4, latencyMs: 900 })).toEqual(
      slowOf(run, { share: 0.4, latencyMs: 900, seed: 0 }),
    );
  });
});
