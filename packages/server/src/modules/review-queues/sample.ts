import type { REVIEW_STRATEGIES } from '@voice-eval/contract';
import { seededRandom, shuffled } from '../../stats/index.js';

/** A call a queue may take: whether the judge flagged it, and whether it and earlier labels differ. */
export type Candidate = { rowId: string; flagged: boolean; disputed: boolean };

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
    .flatMap((key) => shuffled(groups.get(key)!, random))
    .slice(0, size);
};
