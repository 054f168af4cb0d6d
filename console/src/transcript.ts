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
