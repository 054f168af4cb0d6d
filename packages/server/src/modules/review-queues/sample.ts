import type { REVIEW_STRATEGIES } from '@voice-eval/contract';
import { seededRandom } from '../../stats/index.js';

/** A call a queue may take: whether the judge flagged it, and whether it and earlier labels differ. */
export type Candidate = { rowId: string; flagged: boolean; disputed: boolean };

/** Fisher-Yates with the seed's generator: the same seed gives the same order. */
const shuffled = <T>(items: readonly T[], next: (bound: number) => number): T[] => {
  const out = [...items];
  for (let i = out.length - 1; i > 0; i--) {
    const j = next(i + 1);
    [out[i], out[j]] = [out[j]!, out[i]!];
  }
  return out;
};

/**
 * The calls a queue takes, in the order reviewers get them: the candidates grouped by the strategy
 * (disputed, then flagged, then the rest; or flagged, then the rest; or all together), each group
 * shuffled with `seed`, the first `size` of them.
 */
export const sampleCalls = (
  candidates: readonly Candidate[],
  strategy: (typeof REVIEW_STRATEGIES)[number],
  size: number,
  seed: number,
): Candidate[] => {
  const random = seededRandom(seed);
  const next = (bound: number) => random.int(bound);
  const rank = (c: Candidate) =>
    strategy === 'disagreement_first'
      ? c.disputed
        ? 0
        : c.flagged
          ? 1
          : 2
      : strategy === 'flagged_first' && !c.flagged
        ? 1
        : 0;
  const groups = new Map<number, Candidate[]>();
  for (const candidate of candidates)
    groups.set(rank(candidate), [...(groups.get(rank(candidate)) ?? []), candidate]);
  return [...groups.keys()]
    .sort((a, b) => a - b)
    .flatMap((key) => shuffled(groups.get(key)!, next))
    .slice(0, size);
};
