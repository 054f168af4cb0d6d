import type { CallImportRow, TranscriptTurn } from '@voice-eval/contract';

const LABELLED = /^\s*(agent|assistant|bot|ai|user|caller|customer|human|patient)\s*:\s*(.*)$/i;

/**
 * The turns of a call, as the judge's `turn_index` counts them: the diarised transcript, else the
 * speaker-labelled lines of the source transcript (unlabelled text is one caller turn).
 */
export const transcriptOf = (row: CallImportRow): TranscriptTurn[] => {
  if (row.diarised_transcript) return row.diarised_transcript;
  if (!row.source_transcript) return [];
  const turns: TranscriptTurn[] = [];
  for (const line of row.source_transcript.split(/\r?\n/)) {
    const labelled = LABELLED.exec(line);
    if (labelled) {
      const speaker = /^(agent|assistant|bot|ai)$/i.test(labelled[1]!) ? 'agent' : 'user';
      turns.push({ speaker, text: labelled[2]! });
    } else if (line.trim() && turns.length > 0) {
      turns[turns.length - 1]!.text += ` ${line.trim()}`;
    }
  }
  return turns.length > 0 ? turns : [{ speaker: 'user', text: row.source_transcript }];
};
