import { describe, expect, it } from 'vitest';
import { AudioFormatError } from './audio-format-error.js';
import { decodeWav, encodeWav, wavChannelCount } from './wav.js';

type Fmt = { tag: number; channels: number; rate: number; bits: number; subFormat?: number };

const chunk = (id: string, body: Uint8Array): Uint8Array => {
  const out = new Uint8Array(8 + body.length + (body.length % 2));
  out.set([...id].map((c) => c.charCodeAt(0)));
  new DataView(out.buffer).setUint32(4, body.length, true);
  out.set(body, 8);
  return out;
};

const fmtChunk = ({ tag, channels, rate, bits, subFormat }: Fmt): Uint8Array => {
  const body = new Uint8Array(subFormat === undefined ? 16 : 40);
  const view = new DataView(body.buffer);
  const block = (channels * bits) / 8;
  view.setUint16(0, tag, true);
  view.setUint16(2, channels, true);
  view.setUint32(4, rate, true);
  view.setUint32(8, rate * block, true);
  view.setUint16(12, block, true);
  view.setUint16(14, bits, true);
  if (subFormat !== undefined) {
    view.setUint16(16, 22, true);
    view.setUint16(18, bits, true);
    view.setUint32(20, channels === 2 ? 3 : 4, true);
    // KSDATAFORMAT_SUBTYPE_*: the format code, then the fixed GUID tail.
    view.setUint16(24, subFormat, true);
    body.set([0x00, 0x00, 0x00, 0x00, 0x10, 0x00, 0x80, 0x00, 0x00, 0xaa, 0x00, 0x38, 0x9b, 0x71], 26);
  }
  return chunk('fmt ', body);
};

const riff = (...chunks: Uint8Array[]): Uint8Array => {
  const body = [...new TextEncoder().encode('WAVE'), ...chunks.flatMap((c) => [...c])];
  return chunk('RIFF', Uint8Array.from(body));
};

type Encoding = 'Int16' | 'Int32' | 'Float32' | 'Float64';
const WIDTH: Record<Encoding, number> = { Int16: 2, Int32: 4, Float32: 4, Float64: 8 };

/** Little-endian bytes of `values` in `encoding`. */
const packed = (encoding: Encoding, values: number[]): Uint8Array => {
  const width = WIDTH[encoding];
  const bytes = new Uint8Array(values.length * width);
  const view = new DataView(bytes.buffer);
  for (const [i, value] of values.entries()) view[`set${encoding}`](i * width, value, true);
  return bytes;
};

describe('decodeWav', () => {
  it('reads 8-bit unsigned PCM', () => {
    const wav = riff(
      fmtChunk({ tag: 1, channels: 1, rate: 8000, bits: 8 }),
      chunk('data', Uint8Array.of(0, 128, 255)),
    );
    expect(decodeWav(wav)).toEqual({ sampleRate: 8000, channels: [Int16Array.of(-32768, 0, 32512)] });
  });

  it('reads 24-bit and 32-bit PCM by their 16 most significant bits', () => {
    const pcm24 = Uint8Array.of(0xff, 0xff, 0x7f, 0x00, 0x00, 0x80, 0x00, 0x01, 0x00, 0x00, 0xff, 0xff);
    const wav24 = riff(fmtChunk({ tag: 1, channels: 1, rate: 16_000, bits: 24 }), chunk('data', pcm24));
    expect([...decodeWav(wav24).channels[0]!]).toEqual([32767, -32768, 1, -1]);
    const pcm32 = packed('Int32', [0x7fffffff, -0x80000000, 0x10000, -0x10000]);
    const wav32 = riff(fmtChunk({ tag: 1, channels: 1, rate: 16_000, bits: 32 }), chunk('data', pcm32));
    expect([...decodeWav(wav32).channels[0]!]).toEqual([32767, -32768, 1, -1]);
  });

  it('reads IEEE float, clipping beyond ±1', () => {
    const samples = [0, 0.5, -1, 1.5, -2];
    const f32 = packed('Float32', samples);
    const f64 = packed('Float64', samples);
    const expected = [0, 16384, -32768, 32767, -32768];
    expect([
      ...decodeWav(riff(fmtChunk({ tag: 3, channels: 1, rate: 24_000, bits: 32 }), chunk('data', f32)))
        .channels[0]!,
    ]).toEqual(expected);
    expect([
      ...decodeWav(riff(fmtChunk({ tag: 3, channels: 1, rate: 24_000, bits: 64 }), chunk('data', f64)))
        .channels[0]!,
    ]).toEqual(expected);
  });

  it('reads G.711 μ-law', () => {
    const wav = riff(
      fmtChunk({ tag: 7, channels: 1, rate: 8000, bits: 8 }),
      chunk('data', Uint8Array.of(0xff, 0x80, 0x00, 0xf0)),
    );
    expect([...decodeWav(wav).channels[0]!]).toEqual([0, 32124, -32124, 120]);
  });

  it('reads WAVE_FORMAT_EXTENSIBLE by its sub-format, de-interleaving the channels', () => {
    const pcm = packed('Int16', [1, -1, 2, -2, 3, -3]);
    const wav = riff(
      fmtChunk({ tag: 0xfffe, channels: 2, rate: 48_000, bits: 16, subFormat: 1 }),
      chunk('data', pcm),
    );
    expect(decodeWav(wav)).toEqual({
      sampleRate: 48_000,
      channels: [Int16Array.of(1, 2, 3), Int16Array.of(-1, -2, -3)],
    });
    const float = packed('Float32', [-0.25]);
    const floatWav = riff(
      fmtChunk({ tag: 0xfffe, channels: 1, rate: 48_000, bits: 32, subFormat: 3 }),
      chunk('data', float),
    );
    expect([...decodeWav(floatWav).channels[0]!]).toEqual([-8192]);
  });

  it('skips unknown chunks, including odd-sized ones with their pad byte', () => {
    const pcm = packed('Int16', [1234]);
    const wav = riff(
      chunk('JUNK', Uint8Array.of(1, 2, 3)),
      fmtChunk({ tag: 1, channels: 1, rate: 8000, bits: 16 }),
      chunk('LIST', new TextEncoder().encode('INFOISFT?')),
      chunk('data', pcm),
    );
    expect([...decodeWav(wav).channels[0]!]).toEqual([1234]);
  });

  it('reads what is there of a truncated data chunk, whole sample frames only', () => {
    const pcm = packed('Int16', [5, 6, 7]);
    const full = riff(fmtChunk({ tag: 1, channels: 1, rate: 8000, bits: 16 }), chunk('data', pcm));
    expect([...decodeWav(full.subarray(0, full.length - 1)).channels[0]!]).toEqual([5, 6]);
  });

  it.each([
    ['not RIFF', new TextEncoder().encode('ID3\u0004 this is an mp3 file')],
    ['RIFF but not WAVE', chunk('RIFF', new TextEncoder().encode('AVI LIST'))],
    ['ADPCM', riff(fmtChunk({ tag: 2, channels: 1, rate: 8000, bits: 4 }), chunk('data', new Uint8Array(8)))],
    ['A-law', riff(fmtChunk({ tag: 6, channels: 1, rate: 8000, bits: 8 }), chunk('data', new Uint8Array(8)))],
    [
      '12-bit PCM',
      riff(fmtChunk({ tag: 1, channels: 1, rate: 8000, bits: 12 }), chunk('data', new Uint8Array(8))),
    ],
    [
      'zero channels',
      riff(fmtChunk({ tag: 1, channels: 0, rate: 8000, bits: 16 }), chunk('data', new Uint8Array(8))),
    ],
    ['no data chunk', riff(fmtChunk({ tag: 1, channels: 1, rate: 8000, bits: 16 }))],
    [
      'data before fmt',
      riff(chunk('data', new Uint8Array(8)), fmtChunk({ tag: 1, channels: 1, rate: 8000, bits: 16 })),
    ],
  ])('throws AudioFormatError for %s', (_, bytes) => {
    expect(() => decodeWav(bytes)).toThrow(AudioFormatError);
  });
});

describe('encodeWav', () => {
  it('writes interleaved PCM16 with a standard 44-byte header that decodes back', () => {
    const audio = { sampleRate: 8000, channels: [Int16Array.of(1, -2, 32767), Int16Array.of(-32768, 5, 6)] };
    const bytes = encodeWav(audio);
    const view = new DataView(bytes.buffer);
    expect(bytes.length).toBe(44 + 12);
    expect(new TextDecoder().decode(bytes.subarray(0, 4))).toBe('RIFF');
    expect(view.getUint32(4, true)).toBe(36 + 12);
    expect(view.getUint16(22, true)).toBe(2);
    expect(view.getUint32(28, true)).toBe(32_000); // byte rate
    expect(view.getUint16(32, true)).toBe(4); // block align
    expect(view.getInt16(44, true)).toBe(1);
    expect(view.getInt16(46, true)).toBe(-32768);
    expect(decodeWav(bytes)).toEqual(audio);
    const mono = { sampleRate: 16_000, channels: [Int16Array.of(-7, 0, 32767, -32768)] };
    expect(decodeWav(encodeWav(mono))).toEqual(mono);
  });

  it('rejects more than two channels and channels of different lengths', () => {
    const one = new Int16Array(4);
    expect(() => encodeWav({ sampleRate: 8000, channels: [one, one, one] })).toThrow(RangeError);
    expect(() => encodeWav({ sampleRate: 8000, channels: [] })).toThrow(RangeError);
    expect(() => encodeWav({ sampleRate: 8000, channels: [one, new Int16Array(3)] })).toThrow(RangeError);
  });
});

describe('wavChannelCount', () => {
  it('reads the channels from the fmt chunk, past other chunks, without a data chunk', () => {
    const stereo = encodeWav({ sampleRate: 8000, channels: [new Int16Array(4), new Int16Array(4)] });
    expect(wavChannelCount(stereo)).toBe(2);
    const list = chunk('LIST', new Uint8Array(3));
    expect(wavChannelCount(riff(list, fmtChunk({ tag: 1, channels: 1, rate: 8000, bits: 16 })))).toBe(1);
  });

  it('is null for what is not a WAV file, or has no readable fmt chunk', () => {
    expect(wavChannelCount(new TextEncoder().encode('ID3 not a wav at all'))).toBeNull();
    expect(wavChannelCount(riff(chunk('data', new Uint8Array(4))))).toBeNull();
    expect(wavChannelCount(riff(chunk('fmt ', new Uint8Array(4))))).toBeNull();
  });
});
