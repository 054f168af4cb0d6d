import { describe, expect, it } from 'vitest';
import { parseAgentMessage, parsePlatformMessage } from './protocol.js';

const streamSid = 'MZ18ad3ab5a668481ce02b83e7395059f0';

describe('parseAgentMessage', () => {
  it('reads the three messages an agent sends, in the shapes of Twilio’s examples', () => {
    const media = { event: 'media', streamSid, media: { payload: 'a3242sadfasfa423242==' } };
    expect(parseAgentMessage(JSON.stringify(media))).toEqual({ ok: true, message: media });
    const mark = { event: 'mark', streamSid, mark: { name: 'my label' } };
    expect(parseAgentMessage(JSON.stringify(mark))).toEqual({ ok: true, message: mark });
    const clear = { event: 'clear', streamSid };
    expect(parseAgentMessage(JSON.stringify(clear))).toEqual({ ok: true, message: clear });
  });

  it('keeps only the known keys of a media message, as of every other', () => {
    const media = { event: 'media', streamSid, media: { payload: 'AAAA', track: 'outbound' }, extra: 1 };
    expect(parseAgentMessage(JSON.stringify(media))).toEqual({
      ok: true,
      message: { event: 'media', streamSid, media: { payload: 'AAAA' } },
    });
  });

  it('gives a reason for anything else, never throws', () => {
    const cases: Array<[string, RegExp]> = [
      ['{', /not JSON/],
      ['null', /invalid message/],
      ['[]', /invalid message/],
      [JSON.stringify({ event: 'dtmf', streamSid }), /"dtmf" message: event/],
      [JSON.stringify({ event: 7 }), /event must be a string/],
      [JSON.stringify({ event: 'mark', streamSid, mark: {} }), /mark\.name/],
      [JSON.stringify({ event: 'clear' }), /streamSid/],
      [JSON.stringify({ event: 'media', streamSid, media: { payload: 42 } }), /media\.payload/],
      [JSON.stringify({ event: 'media', streamSid, media: { payload: 'ab=c' } }), /base64/],
      [JSON.stringify({ event: 'media', streamSid: '', media: { payload: 'AAAA' } }), /streamSid/],
      [JSON.stringify({ event: 'media', streamSid, media: [] }), /media/],
      [JSON.stringify({ event: 'media', streamSid }), /media/],
    ];
    for (const [raw, reason] of cases) {
      const parsed = parseAgentMessage(raw);
      expect(parsed.ok).toBe(false);
      if (!parsed.ok) expect(parsed.reason).toMatch(reason);
    }
  });
});

describe('parsePlatformMessage', () => {
  it('reads the messages the platform sends', () => {
    const start = {
      event: 'start',
      sequenceNumber: '1',
      start: {
        accountSid: 'AC123',
        streamSid,
        callSid: 'CA123',
        tracks: ['inbound'],
        mediaFormat: { encoding: 'audio/x-mulaw', sampleRate: 8000, channels: 1 },
        customParameters: { FirstName: 'Jane' },
      },
      streamSid,
    };
    expect(parsePlatformMessage(JSON.stringify(start))).toEqual({ ok: true, message: start });
    const media = {
      event: 'media',
      sequenceNumber: '3',
      media: { track: 'inbound', chunk: '1', timestamp: '5', payload: 'no+JhoaJjpy=' },
      streamSid,
    };
    expect(parsePlatformMessage(JSON.stringify(media))).toEqual({ ok: true, message: media });
    const stop = {
      event: 'stop',
      sequenceNumber: '5',
      stop: { accountSid: 'AC1', callSid: 'CA1' },
      streamSid,
    };
    expect(parsePlatformMessage(JSON.stringify(stop))).toEqual({ ok: true, message: stop });
    const wrongRate = {
      ...start,
      start: { ...start.start, mediaFormat: { ...start.start.mediaFormat, sampleRate: 16000 } },
    };
    expect(parsePlatformMessage(JSON.stringify(wrongRate)).ok).toBe(false);
    const numericCounter = { ...media, sequenceNumber: 3 };
    expect(parsePlatformMessage(JSON.stringify(numericCounter)).ok).toBe(false);
  });
});
