import type { TranscriptTurn } from '@voice-eval/contract';
import { describe, expect, it } from 'vitest';
import { activeTurnAt, TURN_START_SLACK_MS } from './transcript.ts';

const turns: TranscriptTurn[] = [
  { speaker: 'agent', text: 'Hello', start_ms: 0, end_ms: 900 },
  { speaker: 'user', text: 'Hi', start_ms: 1200, end_ms: 1800 },
  { speaker: 'agent', text: 'How can I help?', start_ms: 2400, end_ms: 3300 },
];

describe('activeTurnAt', () => {
  it('is the last turn started by the playhead', () => {
    expect(activeTurnAt(turns, 0)).toBe(0);
    expect(activeTurnAt(turns, 1000)).toBe(0);
    expect(activeTurnAt(turns, 1200)).toBe(1);
    expect(activeTurnAt(turns, 5000)).toBe(2);
  });

  it('takes a playhead a hair before a turn’s start (a seek read back rounded down) as that turn', () => {
    expect(activeTurnAt(turns, 2399)).toBe(2);
    expect(activeTurnAt(turns, 2400 - TURN_START_SLACK_MS)).toBe(2);
    expect(activeTurnAt(turns, 2400 - TURN_START_SLACK_MS - 1)).toBe(1);
  });

  it('is none before the first timed turn, or without times', () => {
    expect(activeTurnAt([{ ...turns[0]!, start_ms: 500 }], 100)).toBeUndefined();
    expect(activeTurnAt([{ speaker: 'user', text: 'untimed' }], 10_000)).toBeUndefined();
  });
});
