import { z } from 'zod';
import { DiarisedTurnSchema } from './diarise.v1.js';
import { DATA_NOT_INSTRUCTIONS, delimit, type PromptTemplate } from './prompt-template.js';

/** The reply of the one-pass prompt: turns, and the language heard. */
export const AudioTranscriptSchema = z.object({
  turns: z.array(DiarisedTurnSchema),
  /** ISO-639-1 code of the main language spoken, or null if unclear. */
  language: z.string().nullable(),
});
export type AudioTranscript = z.infer<typeof AudioTranscriptSchema>;

/** Variables of {@link transcribeDiariseV1}; the recording goes in the request's `audio`. */
export interface TranscribeDiariseVars {
  /** The import's `diarization_prompt`. */
  instructions?: string | null;
  /** The expected language, as an ISO-639-1 code. */
  language?: string | null;
  agentDescription?: string | null;
}

/** Transcribes and diarises a recording in one pass, for audio-capable chat models (`llm_only`). */
export const transcribeDiariseV1: PromptTemplate<TranscribeDiariseVars, AudioTranscript> = {
  id: 'transcribe_diarise',
  version: 1,
  schemaName: 'audio_transcript',
  schema: AudioTranscriptSchema,
  system: [
    'You transcribe recordings of phone calls between a voice agent (an AI or human representative',
    'of a business) and a user (the caller or the person called), and attribute every utterance.',
    'Rules:',
    '- Transcribe verbatim in the language spoken; do not translate, summarise or fix grammar.',
    '- Write [inaudible] for words you cannot make out; never invent speech.',
    '- Start a new turn whenever the speaker changes; label each turn "agent" or "user".',
    '- Ignore hold music, ring tones and silence; return no empty turns.',
    '- An empty recording gives an empty list of turns.',
    DATA_NOT_INSTRUCTIONS,
  ].join('\n'),
  render: ({ instructions, language, agentDescription }) =>
    [
      'Transcribe and diarise the attached call recording.',
      language ? `Expected language: ${language}.` : null,
      agentDescription ? `The agent: ${agentDescription}` : null,
      instructions ? `Additional guidance from the user:\n${delimit('guidance', instructions)}` : null,
    ]
      .filter((part): part is string => part !== null)
      .join('\n\n'),
};
