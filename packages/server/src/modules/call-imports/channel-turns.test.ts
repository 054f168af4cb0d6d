import { describe, expect, it } from 'vitest';
import { turnsFromChannels } from './channel-turns.js';

describe('turnsFromChannels', () => {
  it('interleaves the channels by time and joins a speaker’s consecutive segments', () => {
    const turns = turnsFromChannels([
      {
        speaker: 'agent',
        segments: [
          { start_ms: 0, end_ms: 1200, text: 'Riverside Clinic.' },
          { start_ms: 1300, end_ms: 2000, text: ' How can I help?' },
          { start_ms: 5200, end_ms: 6000, text: 'Tuesday at nine.' },
        ],
      },
      {
        speaker: 'user',
        segments: [
          { start_ms: 2600, end_ms: 4800, text: 'I need an appointment.' },
          { start_ms: 6500, end_ms: 6600, text: '  ' },
        ],
      },
    ]);
    expect(turns).toEqual([
      { speaker: 'agent', text: 'Riverside Clinic. How can I help?', start_ms: 0, end_ms: 2000 },
      { speaker: 'user', text: 'I need an appointment.', start_ms: 2600, end_ms: 4800 },
      { speaker: 'agent', text: 'Tuesday at nine.', start_ms: 5200, end_ms: 6000 },
    ]);
  });

  it('keeps a barge-in as its own turn inside the other speaker’s', () => {
    const turns = turnsFromChannels([
      { speaker: 'agent', segments: [{ start_ms: 0, end_ms: 3000, text: 'Our opening hours are' }] },
      { speaker: 'user', segments: [{ start_ms: 2500, end_ms: 3500, text: 'Sorry, one question.' }] },
    ]);
    expect(turns.map((t) => t.speaker)).toEqual(['agent', 'user']);
  });
});
