/**
 * ITU-T G.711 μ-law, the 16-bit formulation of the reference encoder (bias 0x84, clip 32635), so
 * codes are bit-exact with the standard tables and with what Twilio Media Streams carry.
 */
const BIAS = 0x84;
const CLIP = 32635;

/** One sample to its 8-bit code; codes are stored inverted, as the standard transmits them. */
const encodeSample = (sample: number): number => {
  const mask = sample < 0 ? 0x7f : 0xff;
  const magnitude = Math.min(Math.abs(sample), CLIP) + BIAS;
  // The segment is the position of the highest set bit above bit 7: 0..7 for 0x84..0x7fff.
  const segment = 31 - Math.clz32(magnitude) - 7;
  const mantissa = (magnitude >> (segment + 3)) & 0x0f;
  return ((segment << 4) | mantissa) ^ mask;
};

const decodeSample = (code: number): number => {
  const inverted = ~code & 0xff;
  const magnitude = ((((inverted & 0x0f) << 3) + BIAS) << ((inverted & 0x70) >> 4)) - BIAS;
  return inverted & 0x80 ? -magnitude : magnitude;
};

/** The 256 decoded values, built once: decoding is then a table look-up per byte. */
const DECODE_TABLE = Int16Array.from({ length: 256 }, (_, code) => decodeSample(code));

/** Encodes 16-bit linear PCM to G.711 μ-law, one byte per sample. */
export const encodeMulaw = (pcm: Int16Array): Uint8Array => {
  const bytes = new Uint8Array(pcm.length);
  for (let i = 0; i < pcm.length; i++) bytes[i] = encodeSample(pcm[i]!);
  return bytes;
};

/** Decodes G.711 μ-law bytes to 16-bit linear PCM (at most ±32124). */
export const decodeMulaw = (bytes: Uint8Array): Int16Array => {
  const pcm = new Int16Array(bytes.length);
  for (let i = 0; i < bytes.length; i++) {
    const code = bytes[i]!;
    pcm[i] = DECODE_TABLE[code]!;
  }
  return pcm;
};
