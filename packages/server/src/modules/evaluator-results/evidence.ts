import { parseSourceTranscript, type TranscriptTurn } from '@voice-eval/contract';
import { tokenize } from '../../clustering/index.js';

/** A speaker turn as evidence shows it. */
export type EvidenceTurn = { speaker: 'agent' | 'user'; text: string };

/** A turn of a call with its place on the recording, when the transcript is timed. */
export type CallTurn = EvidenceTurn & { start_ms?: number; end_ms?: number };

/** A call's transcript as far as evidence needs it. */
export type CallTranscript = {
  diarised_transcript: TranscriptTurn[] | null;
  source_transcript: string | null;
};

/** Longest quote shown, in characters; longer turns are cut at a word boundary with an ellipsis. */
export const MAX_QUOTE_CHARS = 280;

/** The turns of a call: its diarised transcript (with timing), else its speaker-labelled source transcript. */
export const turnsOf = (call: CallTranscript | undefined): CallTurn[] => {
  if (call?.diarised_transcript?.length) {
    return call.diarised_transcript.map(({ speaker, text, start_ms, end_ms }) => ({
      speaker,
      text,
      start_ms,
      end_ms,
    }));
  }
  return call?.source_transcript ? (parseSourceTranscript(call.source_transcript) ?? []) : [];
};

/** Cuts a quote to {@link MAX_QUOTE_CHARS} at a word boundary. */
export const clip = (text: string): string => {
  const trimmed = text.trim().replace(/\s+/g, ' ');
  if (trimmed.length <= MAX_QUOTE_CHARS) return trimmed;
  const cut = trimmed.slice(0, MAX_QUOTE_CHARS - 1);
  return `${cut.slice(0, Math.max(cut.lastIndexOf(' '), MAX_QUOTE_CHARS / 2))}…`;
};

/** Index of the turn sharing most stemmed terms with the reason (agent turns win ties); -1 if none does. */
const bestTurn = (turns: readonly EvidenceTurn[], reason: string): number => {
  const wanted = new Set(tokenize(reason).map((token) => token.term));
  let best = -1;
  let bestScore = 0;
  turns.forEach((turn, i) => {
    const terms = new Set(tokenize(turn.text).map((token) => token.term));
    const overlap = [...terms].filter((term) => wanted.has(term)).length;
    const score = overlap + (turn.speaker === 'agent' ? 0.5 : 0);
    if (overlap > 0 && score > bestScore) [best, bestScore] = [i, score];
  });
  return best;
};

/** A quote, the turns around it, and where it is in the call. */
export type Evidence = {
  quote: string;
  turns: EvidenceTurn[];
  turn_index: number | null;
  start_ms: number | null;
  end_ms: number | null;
};

/**
 * Evidence for one flagged result: the transcript turn that best matches the judge's reason
 * (sharing most stemmed terms, else the agent's last turn) as the quote, with its index, its
 * place on the recording when known, and the turn before and after it. Without a transcript the
 * quote is the judge's reason and there are no turns.
 */
export const evidenceOf = (turns: readonly CallTurn[], reason: string): Evidence => {
  if (turns.length === 0) {
    return { quote: clip(reason), turns: [], turn_index: null, start_ms: null, end_ms: null };
  }
  let index = bestTurn(turns, reason);
  if (index < 0) index = turns.findLastIndex((turn) => turn.speaker === 'agent');
  if (index < 0) index = turns.length - 1;
  const window = turns
    .slice(Math.max(0, index - 1), index + 2)
    .map(({ speaker, text }) => ({ speaker, text: clip(text) }));
  const quoted = turns[index]!;
  return {
    quote: clip(quoted.text),
    turns: window,
    turn_index: index,
    start_ms: quoted.start_ms ?? null,
    end_ms: quoted.end_ms ?? null,
  };
};
