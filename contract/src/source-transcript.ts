/** A turn of a source transcript: who spoke and what they said. */
export type SourceTurn = { speaker: 'agent' | 'user'; text: string };

const SPEAKER_PREFIX = /^\s*(agent|assistant|bot|ai|user|caller|customer|human|patient)\s*:\s*/i;

/**
 * Turns of a plain-text source transcript whose lines start with a speaker ("Agent: ...",
 * "Caller: ..."); lines without one continue the previous turn. Null when no line names a speaker.
 * The judge reads these turns, and a quote's `turn_index` counts them, when a call has no diarised
 * transcript.
 */
export const parseSourceTranscript = (text: string): SourceTurn[] | null => {
  const turns: SourceTurn[] = [];
  for (const line of text.split(/\r?\n/)) {
    const match = SPEAKER_PREFIX.exec(line);
    if (match) {
      const speaker = /^(agent|assistant|bot|ai)$/i.test(match[1]!) ? 'agent' : 'user';
      turns.push({ speaker, text: line.slice(match[0].length).trim() });
    } else if (turns.length > 0 && line.trim()) {
      turns.at(-1)!.text = `${turns.at(-1)!.text} ${line.trim()}`;
    }
  }
  return turns.length > 0 ? turns : null;
};
