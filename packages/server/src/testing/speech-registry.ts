import { createHash } from 'node:crypto';
import { alignWords, EDGE_FRAMES } from './speech-align.js';
import {
  clampTo,
  correlate,
  type Fingerprint,
  type Floors,
  fallsSilent,
  fingerprintOf,
  floorsOf,
  HOP,
  WINDOW,
  wordSpansOf,
} from './speech-fingerprint.js';

/**
 * Recognition for the voice doubles: utterances are remembered with their 8 kHz audio, and found
 * again in received audio by sliding each one's fingerprint along it and aligning it word by word
 * (`speech-align.ts`). Both sides are floored at the received audio's noise level, so what the
 * platform legitimately does to speech (μ-law, resampling, ambient noise mixed under it, VAD cuts,
 * other audio around it, a stalled stream) keeps the match, while other sentences, a one-word
 * difference or a remembered phrase inside other speech do not match. An utterance that breaks
 * off after some words and falls silent (an agent yielding to a barge-in, a caller still talking)
 * is recognised as the words it got out. The same text in another voice is another utterance.
 */

/** An utterance found in received audio; times in ms from the start of that audio. */
export type RecognizedUtterance = {
  /** The words heard: all of `fullText`, or the words before the audio broke off. */
  text: string;
  fullText: string;
  complete: boolean;
  startMs: number;
  endMs: number;
  /** Correlation of the fingerprints over the matched part (0..1). */
  score: number;
};

/** Utterances remembered, and a recogniser for them. */
export interface SpeechRegistry {
  /** Remembers `pcm8k` (16-bit, 8 kHz) as the audio of `text`. */
  remember(text: string, pcm8k: Int16Array): void;
  /** The remembered texts found in `pcm8k`, in time order. */
  recognize(pcm8k: Int16Array): string[];
  /** Like `recognize`, with times, scores and whether each utterance was heard to the end. */
  recognizeTimed(pcm8k: Int16Array): RecognizedUtterance[];
  /** How many distinct utterances are remembered. */
  size(): number;
}

/** The shortest part of an utterance recognised when the rest is missing. */
const MIN_PARTIAL_FRAMES = 50;
/** Frames of the level contour checked before the full match, and the correlation they need. */
const SCREEN = { frames: 30, score: 0.5 } as const;
/** Mean correlation a match must reach (each of its chunks reaches 0.85), and a broken-off one. */
const MATCH_SCORE = 0.88;
const PARTIAL_SCORE = 0.94;

/** Sample offsets the templates are fingerprinted at, so a match is never more than 10 samples off the hop grid. */
const PHASES = [0, 20, 40, 60];

/**
 * A remembered utterance: its fingerprint from each of {@link PHASES} samples in (`phases[0]`
 * from the start), and the frames [start, end) of each word.
 */
type Template = {
  text: string;
  words: string[];
  phases: Array<{ shift: number; print: Fingerprint }>;
  spans: Array<[number, number]>;
};

type Match = RecognizedUtterance & { rank: number; from: number; to: number };

/** Whether the template's level contour roughly follows the received audio's at `offset`: a cheap first check. */
const screen = (t: Fingerprint, received: Fingerprint, offset: number, from: number, to: number) =>
  !(correlate(t.level, received.level, 1, offset, from, Math.min(to, from + SCREEN.frames)) < SCREEN.score);

/** A pause between utterances, longer than the gaps between words (90 ms) and after commas. */
const PAUSE_FRAMES = 15;

/**
 * Whether there is a pause (or the audio's edge) just before received frame `at` (`side` -1) or
 * just after it (+1): an utterance is said on its own, not out of the middle of other speech.
 */
const pausedAt = (received: Fingerprint, floors: Floors, at: number, side: -1 | 1) => {
  if (side < 0 ? at <= EDGE_FRAMES : at >= received.frames - EDGE_FRAMES) return true;
  const quiet = (f: number) => f < 0 || f >= received.frames || received.level[f]! < floors.quiet;
  for (let near = -2; near <= 10; near++) {
    let run = 0;
    while (run < PAUSE_FRAMES && quiet(at + side * (near + run))) run++;
    if (run === PAUSE_FRAMES) return true;
  }
  return false;
};

/** The overlap of a template of `frames` frames placed at `offset`, if long enough to match. */
const overlapAt = (frames: number, received: Fingerprint, offset: number) => {
  const from = Math.max(0, -offset);
  const to = Math.min(frames, received.frames - offset);
  return to - from < Math.min(frames - 2 * EDGE_FRAMES, MIN_PARTIAL_FRAMES) ? null : { from, to };
};

/** The match of the template, fingerprinted from `shift` samples in (`t`), at `offset`, if there is one. */
const matchAt = (
  template: Template,
  { t, shift }: { t: Fingerprint; shift: number },
  received: Fingerprint,
  floors: Floors,
  offset: number,
): Match | null => {
  const overlap = overlapAt(t.frames, received, offset);
  if (!overlap) return null;
  const { words, end, drift, score } = alignWords(t, template.spans, received, offset);
  if (words === 0 || !(score >= MATCH_SCORE)) return null;
  const complete = words === template.words.length;
  const stop = Math.min(complete ? t.frames : end, received.frames - offset - drift);
  // an utterance is said on its own, not out of the middle of other speech: a pause (or the audio's
  // edge) before it, or after it when it is complete (an agent may go straight on to its next one)
  const before = pausedAt(received, floors, offset, -1);
  if (!before && !(complete && pausedAt(received, floors, offset + drift + t.frames, 1))) return null;
  if (!complete) {
    // broke off: the audio must fall silent within the next word, not go on with other words
    if (stop - overlap.from < MIN_PARTIAL_FRAMES || words < 2 || score < PARTIAL_SCORE) return null;
    const limit = offset + drift + template.spans[words]![1] + EDGE_FRAMES;
    if (!fallsSilent(received, floors, offset + drift + stop, limit)) return null;
  }
  const to = offset + drift + stop;
  return {
    text: template.words.slice(0, words).join(' '),
    fullText: template.text,
    complete,
    startMs: Math.max(0, (offset * HOP - shift) / 8),
    endMs: (to * HOP - shift + WINDOW - HOP) / 8,
    score,
    // complete matches first, then the best; among near ties, the one matching more audio
    rank: (complete ? 1 : 0) + score + 0.0003 * (to - offset - overlap.from),
    from: offset + overlap.from,
    to,
  };
};

/** Recognitions remembered, most recent last: the same audio comes again in every call of a run. */
const REMEMBERED_RESULTS = 256;

/** Creates an empty registry. */
export function createSpeechRegistry(): SpeechRegistry {
  const templates = new Map<string, Template>();
  /**
   * What each audio was recognised as, by its SHA-1, while the templates are the same: calls that
   * play the same script send the same audio (a line's speech from one TTS cache, cut at the same
   * frames), and matching it again costs tens of ms of a process that is also pacing audio frames.
   */
  const results = new Map<string, RecognizedUtterance[]>();

  const recognizeTimed = (pcm8k: Int16Array): RecognizedUtterance[] => {
    const key = createHash('sha1')
      .update(new Uint8Array(pcm8k.buffer, pcm8k.byteOffset, pcm8k.byteLength))
      .digest('base64');
    let found = results.get(key);
    if (found) results.delete(key);
    else found = match(pcm8k);
    results.set(key, found);
    if (results.size > REMEMBERED_RESULTS) results.delete(results.keys().next().value!);
    return found.map((u) => ({ ...u }));
  };

  const match = (pcm8k: Int16Array): RecognizedUtterance[] => {
    const print = fingerprintOf(pcm8k);
    if (print.frames === 0) return [];
    const floors = floorsOf(print);
    const received = clampTo(print, floors);
    const found: Match[] = [];
    for (const template of templates.values()) {
      const phases = template.phases.map(({ shift, print }) => ({ t: clampTo(print, floors), shift }));
      const first = phases[0]!.t;
      const last = received.frames - Math.min(first.frames - EDGE_FRAMES, MIN_PARTIAL_FRAMES);
      for (let offset = -EDGE_FRAMES; offset <= last; offset++) {
        const overlap = overlapAt(first.frames, received, offset);
        if (!overlap || !screen(first, received, offset, overlap.from, overlap.to)) continue;
        let best: Match | null = null;
        for (const phase of phases) {
          const match = matchAt(template, phase, received, floors, offset);
          if (match && (!best || match.rank > best.rank)) best = match;
        }
        if (best) found.push(best);
      }
    }
    found.sort((a, b) => b.rank - a.rank);
    const chosen: Match[] = [];
    for (const m of found) {
      const shorter = (k: Match) => 0.3 * Math.min(k.to - k.from, m.to - m.from);
      if (!chosen.some((k) => Math.min(k.to, m.to) - Math.max(k.from, m.from) > shorter(k))) chosen.push(m);
    }
    return chosen
      .sort((a, b) => a.from - b.from)
      .map(({ text, fullText, complete, startMs, endMs, score }) => ({
        text,
        fullText,
        complete,
        startMs,
        endMs,
        score,
      }));
  };

  return {
    remember: (text, pcm8k) => {
      const print = fingerprintOf(pcm8k);
      const words = text.split(/\s+/).filter((w) => /[a-z0-9]/i.test(w));
      const key = `${text}\u0000${pcm8k.length}\u0000${print.level.join(',')}`;
      if (print.frames === 0 || words.length === 0 || templates.has(key)) return;
      const phases = PHASES.map((shift) => ({
        shift,
        print: shift ? fingerprintOf(pcm8k.subarray(shift)) : print,
      }));
      templates.set(key, { text, words, phases, spans: wordSpansOf(words, print) });
      results.clear();
    },
    recognize: (pcm8k) => recognizeTimed(pcm8k).map((u) => u.text),
    recognizeTimed,
    size: () => templates.size,
  };
}
