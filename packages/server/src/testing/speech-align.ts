import { BANDS, correlate, type Fingerprint } from './speech-fingerprint.js';

/**
 * Word-by-word alignment of a remembered utterance's fingerprint against received audio. Each word
 * is checked in chunks of about 120 ms; a chunk that does not match where the previous one left it
 * is looked for up to 100 ms either way, and the drift carries on, so a stalled stream (a gap or a
 * lost frame in a recording) bends the alignment instead of breaking it.
 */

/** Audio missing at either end of an utterance that still counts as all of it (VAD cuts), in frames. */
export const EDGE_FRAMES = 15;
/** Correlation each chunk of a word must reach where the alignment stands, and where it had to be looked for. */
const CHUNK_SCORE = 0.85;
const MOVED_CHUNK_SCORE = 0.9;
/** Frames per chunk, about. */
const CHUNK_FRAMES = 12;
/** How far a chunk may move from where the previous one left the alignment, and in all, in frames. */
const STEP_FRAMES = 12;
const MAX_DRIFT_FRAMES = 30;
/** Frames a VAD may have cut off the outer edge of the first or last word. */
const EDGE_TRIMS = [0, 5, 10, 15];

/** How far the words of a template matched at an offset. */
export type Alignment = {
  /** Words matched, from the first. */
  words: number;
  /** Template frame where the last matched word ends. */
  end: number;
  /** Received frames the alignment moved by at the last matched word. */
  drift: number;
  /** Length-weighted mean correlation of the chunks (NaN when none could be checked). */
  score: number;
};

/** `[start, end)` cut into chunks of about {@link CHUNK_FRAMES}. */
const chunksOf = (start: number, end: number): Array<[number, number]> => {
  const count = Math.max(1, Math.round((end - start) / CHUNK_FRAMES));
  return Array.from({ length: count }, (_, i) => [
    start + Math.round(((end - start) * i) / count),
    start + Math.round(((end - start) * (i + 1)) / count),
  ]);
};

type Chunk = { a: number; b: number; trimStart: boolean; trimEnd: boolean };

/** Correlation of one chunk with the template placed at `offset`; NaN when too little of it is there. */
const chunkScore = (t: Fingerprint, received: Fingerprint, offset: number, chunk: Chunk) => {
  const lower = Math.max(0, -offset);
  const upper = Math.min(t.frames, received.frames - offset);
  let best = Number.NaN;
  for (const trim of chunk.trimStart || chunk.trimEnd ? EDGE_TRIMS : [0]) {
    const a = Math.max(lower, chunk.a + (chunk.trimStart ? trim : 0));
    const b = Math.min(upper, chunk.b - (chunk.trimEnd ? trim : 0));
    if (b - a < 5) continue;
    const score = correlate(t.bands, received.bands, BANDS, offset, a, b);
    if (Number.isNaN(best) || score > best) best = score;
  }
  return best;
};

/**
 * The best place for a chunk: where the alignment stands, or else nearby (unless `fixed`: the very
 * start of an utterance stays where the offset put it, since other offsets are tried anyway).
 */
const placeChunk = (
  t: Fingerprint,
  received: Fingerprint,
  offset: number,
  drift: number,
  chunk: Chunk,
  fixed: boolean,
) => {
  let best = { score: chunkScore(t, received, offset + drift, chunk), drift };
  if (!(best.score < CHUNK_SCORE) || fixed) return best; // a match, or nothing to check (NaN)
  const low = Math.max(-MAX_DRIFT_FRAMES, drift - STEP_FRAMES);
  const high = Math.min(MAX_DRIFT_FRAMES, drift + STEP_FRAMES);
  for (let d = low; d <= high; d++) {
    if (d === drift) continue;
    const score = chunkScore(t, received, offset + d, chunk);
    if (score > best.score) best = { score, drift: d };
  }
  // looking around finds something more easily: it must be a better match to count
  return best.drift === drift || best.score >= MOVED_CHUNK_SCORE ? best : { ...best, score: 0 };
};

/**
 * Aligns the words of a template (fingerprint `t`, word frames `spans`) placed at `offset` in the
 * received audio, word after word until one does not match or runs past the audio's end.
 */
export const alignWords = (
  t: Fingerprint,
  spans: ReadonlyArray<readonly [number, number]>,
  received: Fingerprint,
  offset: number,
): Alignment => {
  const alignment: Alignment = { words: 0, end: 0, drift: 0, score: Number.NaN };
  let [drift, sum, weight] = [0, 0, 0];
  const last = spans.length - 1;
  for (const [k, [start, end]] of spans.entries()) {
    if (offset + drift + end > received.frames + EDGE_FRAMES) break;
    const chunks = chunksOf(start, end);
    let matched = true;
    for (const [i, [a, b]] of chunks.entries()) {
      const chunk = { a, b, trimStart: k === 0 && i === 0, trimEnd: k === last && i === chunks.length - 1 };
      const first = k === 0 && i === 0;
      const placed = placeChunk(t, received, offset, drift, chunk, first);
      // a chunk the stream stalled in the middle of: its halves each sit at their own drift
      const mid = Math.round((a + b) / 2);
      const halves =
        placed.score < CHUNK_SCORE && b - a >= 10
          ? [
              { ...chunk, b: mid, trimEnd: false },
              { ...chunk, a: mid, trimStart: false },
            ]
          : null;
      for (const [h, part] of (halves ?? [chunk]).entries()) {
        const at = halves ? placeChunk(t, received, offset, drift, part, first && h === 0) : placed;
        if (at.score < CHUNK_SCORE) matched = false;
        if (!matched) break;
        if (Number.isNaN(at.score)) continue; // too quiet or cut to check: passes
        drift = at.drift;
        sum += at.score * (part.b - part.a);
        weight += part.b - part.a;
      }
      if (!matched) break;
    }
    if (!matched) break;
    Object.assign(alignment, { words: k + 1, end, drift, score: weight ? sum / weight : Number.NaN });
  }
  return alignment;
};
