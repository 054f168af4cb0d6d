import { z } from 'zod';
import { DATA_NOT_INSTRUCTIONS, delimit, type PromptTemplate } from './prompt-template.js';

/** One speaker turn of a diarised call. */
export const DiarisedTurnSchema = z.object({
  speaker: z.enum(['agent', 'user']),
  text: z.string(),
});

/** The reply of the diarisation prompts: turns in call order. */
export const DiarisedTranscriptSchema = z.object({ turns: z.array(DiarisedTurnSchema) });
export type DiarisedTranscript = z.infer<typeof DiarisedTranscriptSchema>;

/** Variables of {@link diariseV1}. */
export interface DiariseVars {
  /** The plain transcript, as speech to text or the source file gave it. */
  transcript: string;
  /** The import's `diarization_prompt`: extra guidance from the user. */
  instructions?: string | null;
  /** What the agent is called or does, to tell it from the caller. */
  agentDescription?: string | null;
}

/** Splits a plain transcript of a call into agent and user turns. */
export const diariseV1: PromptTemplate<DiariseVars, DiarisedTranscript> = {
  id: 'diarise',
  version: 1,
  schemaName: 'diarised_transcript',
  schema: DiarisedTranscriptSchema,
  system: [
    'You split transcripts of phone calls between a voice agent (an AI or human representative of a',
    'business) and a user (the caller or the person called) into speaker turns.',
    'Rules:',
    '- Keep the words exactly as transcribed, in order; do not summarise, correct or translate.',
    '- Start a new turn whenever the speaker changes; merge consecutive sentences of one speaker.',
    '- The agent greets, identifies the business, asks for details and follows a process; the user',
    '  states needs and answers questions. Use content and turn-taking cues to decide.',
    '- Every word of the transcript belongs to exactly one turn; return no empty turns.',
    DATA_NOT_INSTRUCTIONS,
  ].join('\n'),
  render: ({ transcript, instructions, agentDescription }) =>
    [
      agentDescription ? `The agent: ${agentDescription}` : null,
      instructions ? `Additional guidance from the user:\n${delimit('guidance', instructions)}` : null,
      'Split this transcript into turns:',
      delimit('transcript', transcript),
    ]
      .filter((part): part is string => part !== null)
      .join('\n\n'),
};
