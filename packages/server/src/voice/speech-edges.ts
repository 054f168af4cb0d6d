import type { Segment } from './measures.js';

/** Samples quieter than this (about −50 dBFS) are silence when placing speech on the timeline. */
const SILENT = 100;
/** The window sound is looked for in: 2.5 ms, below any syllable. */
const WINDOW_MS = 2.5;
/** How far from the voice-activity detector's boundaries an utterance's true edges are looked for, in ms. */
export const EDGE_SEARCH_MS = 150;
/**
 * A silence this long ends the sound an edge belongs to, in ms: a fragment beyond it is not the
 * utterance's (such as one 20 ms frame of an agent's audio played before a gap in its stream).
 */
export const EDGE_GAP_MS = 100;

const windowOf = (sampleRate: number) => Math.max(1, Math.round((sampleRate * WINDOW_MS) / 1000));

const loudFrom = (pcm: Int16Array, from: number, length: number) => {
  for (let i = from; i < Math.min(pcm.length, from + length); i++)
    if (Math.abs(pcm[i]!) > SILENT) return true;
  return false;
};

/**
 * Where speech really starts and ends inside clean audio (no ambience): the first and last 2.5 ms
 * windows with a sample above −50 dBFS, in samples; null for silence. Latencies are measured from
 * these, not from the VAD's frame-quantised events or the TTS audio's padding.
 */
export const speechBounds = (pcm: Int16Array, sampleRate = 8000): { start: number; end: number } | null => {
  const window = windowOf(sampleRate);
  let start = -1;
  for (let i = 0; i < pcm.length; i += window) {
    if (loudFrom(pcm, i, window)) {
      start = i;
      break;
    }
  }
  if (start < 0) return null;
  let end = start;
  for (let i = Math.floor((pcm.length - 1) / window) * window; i >= start; i -= window) {
    if (loudFrom(pcm, i, window)) {
      end = Math.min(pcm.length, i + window);
      break;
    }
  }
  return { start, end };
};

/**
 * An edge of the sound around window `from`, walking `step` (-1 back, +1 on) across pauses shorter
 * than the gap: the last loud window's index, or null when sound reaches past the search (ambience).
 */
const walk = (
  pcm: Int16Array,
  window: number,
  from: number,
  step: 1 | -1,
  limits: { gap: number; reach: number },
) => {
  const last = Math.ceil(pcm.length / window) - 1;
  let edge = from;
  for (let w = from + step; w >= 0 && w <= last; w += step) {
    if (loudFrom(pcm, w * window, window)) edge = w;
    else if ((w - edge) * step >= limits.gap) return edge;
    if ((w - from) * step > limits.reach) return null;
  }
  return edge;
};

/**
 * An utterance's true edges in clean audio, from the voice-activity detector's `segment` (ms): the
 * sound nearest each boundary within {@link EDGE_SEARCH_MS}, followed outwards until a silence of
 * {@link EDGE_GAP_MS}. Windows sit on the audio's own grid, so the same audio gives the same edges
 * from boundaries a frame apart: a live call and its recording measure alike. Where there is no
 * sound near a boundary, or sound runs on past the search (ambience), that boundary is kept.
 */
export const speechEdges = (pcm: Int16Array, sampleRate: number, segment: Segment): Segment => {
  const window = windowOf(sampleRate);
  const perMs = sampleRate / 1000;
  const search = Math.ceil((EDGE_SEARCH_MS * perMs) / window);
  const limits = { gap: Math.ceil((EDGE_GAP_MS * perMs) / window), reach: 0 };
  limits.reach = search + limits.gap;
  const windows = Math.ceil(pcm.length / window);
  const startWindow = Math.floor((segment.startMs * perMs) / window);
  let startMs = segment.startMs;
  for (let w = Math.max(0, startWindow); w < Math.min(windows, startWindow + search); w++) {
    if (!loudFrom(pcm, w * window, window)) continue;
    const edge = walk(pcm, window, w, -1, limits);
    if (edge !== null) startMs = (edge * window) / perMs;
    break;
  }
  const endWindow = Math.ceil((segment.endMs * perMs) / window) - 1;
  let endMs = segment.endMs;
  for (let w = Math.min(windows - 1, endWindow); w >= Math.max(0, endWindow - search); w--) {
    if (!loudFrom(pcm, w * window, window)) continue;
    const edge = walk(pcm, window, w, 1, limits);
    if (edge !== null) endMs = Math.min(pcm.length, (edge + 1) * window) / perMs;
    break;
  }
  return { startMs, endMs: Math.max(startMs, endMs) };
};
