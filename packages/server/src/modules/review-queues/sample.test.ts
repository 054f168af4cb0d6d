import { describe, expect, it } from 'vitest';
import { type Candidate, sampleCalls } from './sample.js';

const calls = (n: number, mark: (i: number) => Partial<Candidate> = () => ({})): Candidate[] =>
  Array.from({ length: n }, (_, i) => ({ rowId: `r${i}`, flagged: false, disputed: false, ...mark(i) }));

describe('sampleCalls', () => {
  it('takes the same calls in the same order for a seed, and others for another seed', () => {
    const all = calls(50);
    const first = sampleCalls(all, 'random', 10, 7).map((c) => c.rowId);
    expect(sampleCalls(all, 'random', 10, 7).map((c) => c.rowId)).toEqual(first);
    expect(new Set(first).size).toBe(10);
    expect(sampleCalls(all, 'random', 10, 8).map((c) => c.rowId)).not.toEqual(first);
    expect(sampleCalls(all, 'random', 80, 7)).toHaveLength(50);
  });

  it('puts flagged calls first, and disputed ones before them, each group shuffled', () => {
    const all = calls(30, (i) => ({ flagged: i % 3 === 0, disputed: i % 10 === 0 }));
    const flaggedFirst = sampleCalls(all, 'flagged_first', 30, 1);
    expect(flaggedFirst.slice(0, 10).every((c) => c.flagged)).toBe(true);
    expect(flaggedFirst.slice(10).some((c) => c.flagged)).toBe(false);
    // 3 disputed (one of them flagged too), then the 9 other flagged, then the rest
    const disputedFirst = sampleCalls(all, 'disagreement_first', 14, 1);
    expect(disputedFirst.slice(0, 3).every((c) => c.disputed)).toBe(true);
    expect(disputedFirst.slice(3, 12).every((c) => c.flagged && !c.disputed)).toBe(true);
    expect(disputedFirst.slice(12).every((c) => !c.flagged && !c.disputed)).toBe(true);
    // within a group the order is the seed's, not the source's
    expect(flaggedFirst.slice(0, 10).map((c) => c.rowId)).not.toEqual(
      all.filter((c) => c.flagged).map((c) => c.rowId),
    );
  });
});
