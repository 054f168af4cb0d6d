import { describe, expect, it } from 'vitest';
import { stem } from './stem.js';

describe('stem (Porter)', () => {
  it.each([
    ['caresses', 'caress'],
    ['ponies', 'poni'],
    ['cats', 'cat'],
    ['agreed', 'agre'],
    ['plastered', 'plaster'],
    ['motoring', 'motor'],
    ['hopping', 'hop'],
    ['filing', 'file'],
    ['happy', 'happi'],
    ['relational', 'relat'],
    ['conditional', 'condit'],
    ['hopefulness', 'hope'],
    ['electrical', 'electr'],
    ['adjustment', 'adjust'],
    ['controlling', 'control'],
    ['generalizations', 'gener'],
  ])('%s -> %s', (word, expected) => {
    expect(stem(word)).toBe(expected);
  });

  it('gives inflections of one word the same stem', () => {
    const stems = ['confirm', 'confirmed', 'confirming', 'confirms', 'confirmation'].map(stem);
    expect(new Set(stems)).toEqual(new Set(['confirm']));
  });

  it('leaves words of one or two letters alone', () => {
    expect(stem('is')).toBe('is');
    expect(stem('a')).toBe('a');
  });
});
