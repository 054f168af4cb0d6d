/** Samples quieter than this (about −50 dBFS) are silence when placing speech on the timeline. */
const SILENT = 100;
/** The window the bounds are found in: 2.5 ms at 8 kHz, below any syllable. */
const WINDOW = 20;

const loud = (pcm: Int16Array, from: number) => {
  for (let i = from; i < Math.min(pcm.length, from + WINDOW); i++)
    if (Math.abs(pcm[i]!) > SILENT) return true;
  return false;
};

/**
 * Where speech really starts and ends inside clean audio (no ambience): the first and last 2.5 ms
 * windows with a sample above −50 dBFS, in samples; null for silence. Latencies are measured from
 * these, not from the VAD's frame-quantised events or the TTS audio's padding.
 */
export const speechBounds = (pcm: Int16Array): { start: number; end: number } | null => {
  let start = -1;
  for (let i = 0; i < pcm.length; i += WINDOW) {
    if (loud(pcm, i)) {
      start = i;
      break;
    }
  }
  if (start < 0) return null;
  let end = start;
  for (let i = Math.floor((pcm.length - 1) / WINDOW) * WINDOW; i >= start; i -= WINDOW) {
    if (loud(pcm, i)) {
      end = Math.min(pcm.length, i + WINDOW);
      break;
    }
  }
  return { start, end };
};
