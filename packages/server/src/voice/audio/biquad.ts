/**
 * Second-order IIR sections with the coefficients of the Audio EQ Cookbook (R. Bristow-Johnson),
 * normalised so a0 = 1. Used to shape generated noise and to high-pass the VAD's input.
 */
export type Biquad = { b0: number; b1: number; b2: number; a1: number; a2: number };

type Shape = 'lowpass' | 'highpass' | 'bandpass';

/** Cookbook coefficients for `shape` at `frequency` Hz (bandpass: 0 dB at the centre). */
export const biquad = (shape: Shape, rate: number, frequency: number, q = Math.SQRT1_2): Biquad => {
  const w = (2 * Math.PI * Math.min(frequency, rate * 0.49)) / rate;
  const alpha = Math.sin(w) / (2 * q);
  const cos = Math.cos(w);
  const a0 = 1 + alpha;
  const [b0, b1, b2] =
    shape === 'lowpass'
      ? [(1 - cos) / 2, 1 - cos, (1 - cos) / 2]
      : shape === 'highpass'
        ? [(1 + cos) / 2, -(1 + cos), (1 + cos) / 2]
        : [alpha, 0, -alpha];
  return { b0: b0 / a0, b1: b1 / a0, b2: b2 / a0, a1: (-2 * cos) / a0, a2: (1 - alpha) / a0 };
};

/**
 * A stateful filter over a cascade of sections (transposed direct form II), a block at a time:
 * filters `input` into `output` from `at` on, carrying its state to the next block. Called per
 * sample, a filter returns each double boxed on the heap; a block keeps them unboxed (the VAD
 * high-passes 8,000 samples a second of every call).
 */
export const createBlockFilter = (
  sections: readonly Biquad[],
): ((input: ArrayLike<number>, output: Float64Array, at: number) => void) => {
  const z1 = new Float64Array(sections.length);
  const z2 = new Float64Array(sections.length);
  return (input, output, at) => {
    for (let n = 0; n < input.length; n++) {
      let y = input[n]!;
      for (let i = 0; i < sections.length; i++) {
        const s = sections[i]!;
        const x = y;
        y = s.b0 * x + z1[i]!;
        z1[i] = s.b1 * x - s.a1 * y + z2[i]!;
        z2[i] = s.b2 * x - s.a2 * y;
      }
      output[at + n] = y;
    }
  };
};

/** The filter of {@link createBlockFilter} one sample at a time. */
export const createFilter = (sections: readonly Biquad[]): ((x: number) => number) => {
  const block = createBlockFilter(sections);
  const input = [0];
  const output = new Float64Array(1);
  return (x) => {
    input[0] = x;
    block(input, output, 0);
    return output[0]!;
  };
};
