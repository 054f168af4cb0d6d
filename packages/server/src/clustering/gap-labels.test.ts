import { describe, expect, it } from 'vitest';
import { gapLabelOf } from './gap-labels.js';

describe('gapLabelOf (keyword heuristic)', () => {
  it.each([
    [['The calendar lookup returned an error.'], 'TOOL_GAP'],
    [['The agent misheard the phone number.', 'Speech recognition garbled the surname.'], 'ASR_GAP'],
    [['Long pause and silence before each reply.'], 'LATENCY_GAP'],
    [['Shared records without verifying identity, against policy.'], 'POLICY_GAP'],
    [['Quoted an incorrect price.'], 'KNOWLEDGE_GAP'],
    [['The tone was rude and the greeting missing.'], 'PROMPT_GAP'],
    [['Forgot to confirm the booking before moving to the next step.'], 'LOGIC_GAP'],
    [['Nothing in particular happened here.'], 'OTHER'],
  ] as const)('%j -> %s', (texts, expected) => {
    expect(gapLabelOf(texts)).toBe(expected);
  });

  it('counts cues across all texts and breaks ties by the order of the families', () => {
    expect(gapLabelOf(['incorrect price', 'calendar error', 'system timeout'])).toBe('TOOL_GAP');
    expect(gapLabelOf(['confirm', 'price'])).toBe('LOGIC_GAP');
  });
});
