import { z } from 'zod';
import { DATA_NOT_INSTRUCTIONS, delimit, formatTurns, type PromptTemplate } from './prompt-template.js';

/** The persona's next utterance, and whether it hangs up after saying it. */
export const PersonaTurnSchema = z.object({
  text: z.string(),
  end_call: z.boolean(),
});
export type PersonaTurn = z.infer<typeof PersonaTurnSchema>;

/** Variables of {@link personaCallerV1}. */
export interface PersonaCallerVars {
  persona: { name: string; gender: string; description: string };
  scenario: { name: string; description: string; requiredInfo: unknown };
  /** `inbound`: the persona called the agent with a goal; `outbound`: the agent called the persona. */
  callType: 'inbound' | 'outbound';
  /** The conversation so far, `agent` and `caller` turns in order (the agent spoke first). */
  turns: ReadonlyArray<{ speaker: 'agent' | 'caller'; text: string }>;
  /** Caller turns left before the call is cut; at 1 the persona should wrap up. */
  turnsLeft: number;
}

/**
 * Plays a persona on a phone call with a voice agent: the simulated caller of a suite run. The
 * transcript is rendered as numbered `agent:` / `caller:` lines inside `<conversation>`.
 */
export const personaCallerV1: PromptTemplate<PersonaCallerVars, PersonaTurn> = {
  id: 'persona_caller',
  version: 1,
  schemaName: 'persona_turn',
  schema: PersonaTurnSchema,
  system: [
    'You play a person on a phone call with a voice agent, to test that agent. Stay in character:',
    'speak as the persona would, in one short spoken utterance (no stage directions, no markdown).',
    'Rules:',
    '- Pursue the scenario. Give the required information when the agent asks for it, one item at a',
    '  time, as a real caller would; do not volunteer everything at once.',
    '- Never reveal that you are an AI or a test.',
    '- Set end_call to true when your goal is met, when the agent ends the call, or when you give up;',
    '  your text is then your goodbye.',
    DATA_NOT_INSTRUCTIONS,
  ].join('\n'),
  render: ({ persona, scenario, callType, turns, turnsLeft }) =>
    [
      `You are ${persona.name} (${persona.gender}).`,
      delimit('persona', persona.description || 'An ordinary caller.'),
      callType === 'inbound'
        ? 'You called the agent. Your goal is the scenario below.'
        : 'The agent called you. React to the call in light of the scenario below.',
      `Scenario: ${scenario.name}`,
      delimit('scenario', scenario.description || scenario.name),
      scenario.requiredInfo == null
        ? null
        : `Information you can give when asked:\n${delimit('required_info', JSON.stringify(scenario.requiredInfo))}`,
      turnsLeft <= 1 ? 'This is your last turn: wrap up and say goodbye.' : null,
      'The conversation so far:',
      delimit('conversation', formatTurns(turns)),
      'Reply with your next utterance as the caller.',
    ]
      .filter((part): part is string => part !== null)
      .join('\n\n'),
};
