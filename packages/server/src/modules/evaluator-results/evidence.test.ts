import { parseSourceTranscript } from '@voice-eval/contract';
import { describe, expect, it } from 'vitest';
import { clip, evidenceOf, MAX_QUOTE_CHARS, turnsOf } from './evidence.js';

const turns = [
  { speaker: 'user' as const, text: 'Hi, I want to book a cleaning.' },
  { speaker: 'agent' as const, text: 'Sure, I booked you for Tuesday.' },
  { speaker: 'user' as const, text: 'What time is it?' },
  { speaker: 'agent' as const, text: 'The price of a cleaning is 40 dollars.' },
  { speaker: 'user' as const, text: 'Thanks, bye.' },
];

describe('evidenceOf', () => {
  it('quotes the turn sharing most terms with the reason, with its neighbours', () => {
    const evidence = evidenceOf(turns, 'The agent quoted a wrong cleaning price.');
    expect(evidence.quote).toBe('The price of a cleaning is 40 dollars.');
    expect(evidence.turns).toEqual(turns.slice(2, 5));
    expect([evidence.turn_index, evidence.start_ms, evidence.end_ms]).toEqual([3, null, null]);
  });

  it('places the quote on the recording when the turns are timed, and shows the turns without timing', () => {
    const timed = turns.map((turn, i) => ({ ...turn, start_ms: i * 1000, end_ms: i * 1000 + 800 }));
    const evidence = evidenceOf(timed, 'The agent quoted a wrong cleaning price.');
    expect([evidence.turn_index, evidence.start_ms, evidence.end_ms]).toEqual([3, 3000, 3800]);
    expect(evidence.turns).toEqual(turns.slice(2, 5));
  });

  it("falls back to the agent's last turn, and to the reason without a transcript", () => {
    expect(evidenceOf(turns, 'zzz').quote).toBe(turns[3]!.text);
    expect(evidenceOf([], 'No read-back of the time.')).toEqual({
      quote: 'No read-back of the time.',
      turns: [],
      turn_index: null,
      start_ms: null,
      end_ms: null,
    });
  });
});

describe('transcripts', () => {
  it('parses speaker-labelled source transcripts and prefers diarised turns', () => {
    const parsed = parseSourceTranscript('Agent: Hello\nCaller: I need help\nwith a booking\nnoise');
    expect(parsed).toEqual([
      { speaker: 'agent', text: 'Hello' },
      { speaker: 'user', text: 'I need help with a booking noise' },
    ]);
    expect(parseSourceTranscript('no speakers here')).toBeNull();
    expect(
      turnsOf({
        diarised_transcript: [{ speaker: 'agent', text: 'A', start_ms: 1 }],
        source_transcript: 'User: B',
      }),
    ).toEqual([{ speaker: 'agent', text: 'A', start_ms: 1, end_ms: undefined }]);
    expect(turnsOf({ diarised_transcript: null, source_transcript: 'User: B' })).toEqual([
      { speaker: 'user', text: 'B' },
    ]);
    expect(turnsOf(undefined)).toEqual([]);
  });

  it('clips long quotes at a word boundary', () => {
    const quote = clip('word '.repeat(200));
    expect(quote.length).toBeLessThanOrEqual(MAX_QUOTE_CHARS);
    expect(quote.endsWith('word…')).toBe(true);
  });
});
