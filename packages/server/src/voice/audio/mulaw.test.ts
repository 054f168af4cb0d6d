import { describe, expect, it } from 'vitest';
import { decodeMulaw, encodeMulaw } from './mulaw.js';

/** The G.711 μ-law decoding table, code 0x00 to 0xff (as in the ITU-T G.191 software tools). */
const STANDARD = [
  -32124, -31100, -30076, -29052, -28028, -27004, -25980, -24956, -23932, -22908, -21884, -20860, -19836,
  -18812, -17788, -16764, -15996, -15484, -14972, -14460, -13948, -13436, -12924, -12412, -11900, -11388,
  -10876, -10364, -9852, -9340, -8828, -8316, -7932, -7676, -7420, -7164, -6908, -6652, -6396, -6140, -5884,
  -5628, -5372, -5116, -4860, -4604, -4348, -4092, -3900, -3772, -3644, -3516, -3388, -3260, -3132, -3004,
  -2876, -2748, -2620, -2492, -2364, -2236, -2108, -1980, -1884, -1820, -1756, -1692, -1628, -1564, -1500,
  -1436, -1372, -1308, -1244, -1180, -1116, -1052, -988, -924, -876, -844, -812, -780, -748, -716, -684, -652,
  -620, -588, -556, -524, -492, -460, -428, -396, -372, -356, -340, -324, -308, -292, -276, -260, -244, -228,
  -212, -196, -180, -164, -148, -132, -120, -112, -104, -96, -88, -80, -72, -64, -56, -48, -40, -32, -24, -16,
  -8, 0,
];
const TABLE = [...STANDARD, ...STANDARD.map((value) => (value === 0 ? 0 : -value))];
const ALL_CODES = Uint8Array.from({ length: 256 }, (_, code) => code);

describe('G.711 μ-law', () => {
  it('decodes every code to the standard table', () => {
    expect([...decodeMulaw(ALL_CODES)]).toEqual(TABLE);
  });

  it.each([
    [0, 0xff],
    [-1, 0x7f],
    [3, 0xff],
    [4, 0xfe],
    [123, 0xf0],
    [124, 0xef],
    [16251, 0x90],
    [16252, 0x8f],
    [32635, 0x80],
    [32767, 0x80],
    [-32768, 0x00],
  ])('encodes %i as 0x%s', (sample, code) => {
    expect(encodeMulaw(Int16Array.of(sample))[0]).toBe(code);
  });

  it('encodes each decoded value back to its code (0x7f is the second zero)', () => {
    const codes = encodeMulaw(decodeMulaw(ALL_CODES));
    const expected = [...ALL_CODES].map((code) => (code === 0x7f ? 0xff : code));
    expect([...codes]).toEqual(expected);
  });

  it('is sign-symmetric: a negative sample differs from its positive only in the top bit', () => {
    const positive = Int16Array.from({ length: 32767 }, (_, i) => i + 1);
    const negative = positive.map((sample) => -sample);
    const p = encodeMulaw(positive);
    const n = encodeMulaw(negative);
    for (let i = 0; i < p.length; i++) if ((p[i]! ^ 0x80) !== n[i]) throw new Error(`sample ${i + 1}`);
  });

  it('round-trips the full 16-bit range within half a quantisation step', () => {
    const all = Int16Array.from({ length: 65536 }, (_, i) => i - 32768);
    const back = decodeMulaw(encodeMulaw(all));
    let worst = 0;
    for (let i = 0; i < all.length; i++) {
      const magnitude = Math.abs(all[i]!);
      const error = Math.abs(back[i]! - all[i]!);
      // Steps double per segment: half a step is at most (|x| + bias) / 32 below the clip level.
      if (magnitude <= 32635 && error > (magnitude + 0x84) / 32)
        throw new Error(`sample ${all[i]} -> ${back[i]}`);
      worst = Math.max(worst, error);
    }
    expect(worst).toBe(32768 - 32124); // only the clipped extreme exceeds the 512 of the last segment
  });
});
