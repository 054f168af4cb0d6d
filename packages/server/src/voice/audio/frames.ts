/** Duration of one media frame: Twilio Media Streams carry 20 ms of audio per `media` message. */
export const FRAME_MS = 20;

/** Samples in one {@link FRAME_MS} frame at `rate` Hz; throws a RangeError when that is not whole. */
export const samplesPerFrame = (rate: number): number => {
  const samples = (rate * FRAME_MS) / 1000;
  if (!Number.isInteger(samples) || samples <= 0) {
    throw new RangeError(`${rate} Hz has no whole number of samples per ${FRAME_MS} ms frame`);
  }
  return samples;
};

/** Splits PCM at `rate` Hz into consecutive 20 ms frames; the last one is zero-padded to full length. */
export const toFrames = (pcm: Int16Array, rate: number): Int16Array[] => {
  const size = samplesPerFrame(rate);
  const frames: Int16Array[] = [];
  for (let start = 0; start < pcm.length; start += size) {
    const frame = new Int16Array(size);
    frame.set(pcm.subarray(start, Math.min(start + size, pcm.length)));
    frames.push(frame);
  }
  return frames;
};
