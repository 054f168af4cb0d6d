import { type CallImportRow, parseSourceTranscript, type TranscriptTurn } from '@voice-eval/contract';

/**
 * The turns of a call, as the judge's `turn_index` counts them: the diarised transcript, else the
 * speaker-labelled turns of the source transcript (text naming no speaker is one caller turn, 0).
 */
export const transcriptOf = (row: CallImportRow): TranscriptTurn[] => {
  if (row.diarised_transcript) return row.diarised_transcript;
  if (!row.source_transcript) return [];
  return parseSourceTranscript(row.source_transcript) ?? [{ speaker: 'user', text: row.source_transcript }];
};

/**
 * How far before a turn's start the playhead may stand and still be in that turn. A paused media
 * element reports a seek to a turn's start a hair early (its clock counts whole audio frames, and
 * the console rounds to milliseconds), which would otherwise light the turn before.
 */
export const TURN_START_SLACK_MS = 5;

/** The index of the turn being spoken at `ms` (the last to start by then), if any has started. */
export const activeTurnAt = (turns: readonly TranscriptTurn[], ms: number): number | undefined => {
  let active: number | undefined;
  turns.forEach((turn, index) => {
    if (turn.start_ms !== undefined && turn.start_ms <= ms + TURN_START_SLACK_MS) active = index;
  });
  return active;
};
