import { shareOf } from './agent.js';

/**
 * A share of calls the voice agent double answers slowly, picked per call from its `callSid` and
 * `seed` alone, so a call is slow or fast the same way on every connection and every rerun.
 */
export type SlowShare = {
  /** The share of calls (0..1) answered slowly. */
  share: number;
  /** How long after the caller's speech (and after `start`, for the greeting) a slow call is answered, in ms. */
  latencyMs: number;
  /** Changes which calls are slow, not how many. @default 0 */
  seed?: number;
};

/** A callSid that ends in a number: a run's calls (`run-1a2b3c4d-0007`) differ only there. */
const NUMBERED = /^(.*?)(\d+)$/;

/**
 * Whether the call `callSid` is one of `slow.share`'s. CallSids that differ only in a trailing
 * number (the calls of one suite run) are spread evenly from a seeded start: of any n consecutive
 * numbers, n × share rounded down or up are slow, so a run of n calls has exactly that share when
 * n × share is whole. Any other callSid is slow with probability `share`, by its hash.
 */
export const isSlowCall = (callSid: string, slow: SlowShare): boolean => {
  const seed = slow.seed ?? 0;
  const numbered = NUMBERED.exec(callSid);
  if (!numbered) return shareOf(`slow:${seed}:${callSid}`) < slow.share;
  const start = shareOf(`slow:${seed}:${numbered[1]}`);
  // the n-th call is slow when the seeded walk of step `share` crosses a whole number on it
  const n = Number(numbered[2]);
  return Math.floor(start + n * slow.share) > Math.floor(start + (n - 1) * slow.share);
};
