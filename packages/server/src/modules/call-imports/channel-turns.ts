import type { TranscriptTurn } from '@voice-eval/contract';
import type { TranscriptionSegment } from '../../providers/index.js';

/** Who speaks on each channel of a recording diarised by channel: the agent left, the caller right. */
export const CHANNEL_SPEAKERS = ['agent', 'user'] as const;

/**
 * The turns of a recording whose channels are its speakers: every channel's segments, in time
 * order, with consecutive segments of one speaker joined into one turn (its times span them).
 * Empty segments are dropped.
 */
export const turnsFromChannels = (
  channels: ReadonlyArray<{ speaker: TranscriptTurn['speaker']; segments: readonly TranscriptionSegment[] }>,
): TranscriptTurn[] => {
  const spoken = channels
    .flatMap(({ speaker, segments }) => segments.map((segment) => ({ speaker, ...segment })))
    .filter((segment) => segment.text.trim() !== '')
    .sort((a, b) => a.start_ms - b.start_ms || a.end_ms - b.end_ms);
  const turns: Array<TranscriptTurn & { start_ms: number; end_ms: number }> = [];
  for (const { speaker, text, start_ms, end_ms } of spoken) {
    const last = turns.at(-1);
    if (last?.speaker === speaker) {
      last.text = `${last.text} ${text.trim()}`;
      last.end_ms = Math.max(last.end_ms, end_ms);
    } else turns.push({ speaker, text: text.trim(), start_ms, end_ms });
  }
  return turns;
};
