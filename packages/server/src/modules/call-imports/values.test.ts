import { describe, expect, it } from 'vitest';
import { sniffDelimiter } from './sources/csv.js';
import { readValue } from './values.js';

describe('readValue', () => {
  it.each([
    ['number', ' 007.50 ', '7.5'],
    ['number', '-1e3', '-1000'],
    ['duration_seconds', '12.0', '12'],
    ['boolean', 'YES', 'true'],
    ['boolean', '0', 'false'],
    ['datetime', '2026-03-01 10:00:00Z', '2026-03-01T10:00:00.000Z'],
    ['datetime', 46_082.25, '2026-03-01T06:00:00.000Z'],
    ['phone_number', '+1 (555) 010-9999', '+15550109999'],
    ['recording_url', 'https://a.example/x y.wav', 'https://a.example/x%20y.wav'],
    ['json', ' {"a":1} ', '{"a":1}'],
    ['string', '  padded  ', 'padded'],
    ['conversation_id', 42, '42'],
  ] as const)('reads %s %j as %j', (type, raw, expected) => {
    expect(readValue(type, raw)).toEqual({ ok: true, value: expected });
  });

  it.each([
    ['number', '1,5'],
    ['number', 'NaN'],
    ['duration_seconds', '-3'],
    ['boolean', 'maybe'],
    ['datetime', 'yesterday'],
    ['phone_number', 'call me'],
    ['recording_url', 'file:///etc/passwd'],
    ['recording_url', 'not a url'],
    ['json', '{nope'],
    ['conversation_id', 'x'.repeat(257)],
  ] as const)('refuses %s %j', (type, raw) => {
    expect(readValue(type, raw)).toMatchObject({ ok: false, message: expect.any(String) });
  });

  it('reads empty cells as null whatever the type', () => {
    for (const raw of [null, undefined, '', '   '])
      expect(readValue('number', raw)).toEqual({ ok: true, value: null });
  });
});

describe('sniffDelimiter', () => {
  it.each([
    ['a,b,c', ','],
    ['a;b;"c,d"', ';'],
    ['a\tb\tc', '\t'],
    ['a|b|c', '|'],
    ['single', ','],
  ])('finds the delimiter of %j', (line, expected) => {
    expect(sniffDelimiter(line)).toBe(expected);
  });
});
