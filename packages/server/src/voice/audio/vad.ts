import { samplesPerFrame } from './frames.js';
import { createFrameAnalyser } from './vad-features.js';
import { createNoiseFloor } from './vad-floor.js';

/** Tuning of {@link createVad}; the defaults were measured on the committed speech clip in noise. */
export type VadOptions = {
  /** Sample rate of the frames, Hz. @default 8000 */
  sampleRate?: number;
  /** Time without voiced speech after which an utterance ends, ms. @default 500 */
  hangoverMs?: number;
  /** Voiced speech needed before an utterance starts (shorter blips are ignored), ms. @default 60 */
  minSpeechMs?: number;
  /** How far above the noise floor a frame must be to count, dB. @default 9 */
  thresholdDb?: number;
  /** How far above the background's median level an unvoiced edge frame must be, dB. @default 6 */
  edgeMarginDb?: number;
  /** Frames quieter than this never count, whatever the floor, dBFS. @default -55 */
  minLevelDbfs?: number;
};

/** One frame's verdict. */
export type VadResult = {
  /** Whether this frame is speech of a detected utterance (false in pauses and during the hangover). */
  speech: boolean;
  /** 'start' on the frame that confirms an utterance, 'end' on the frame after its hangover, else null. */
  event: 'start' | 'end' | null;
  /**
   * For events, where the utterance really starts or ends, in ms since the first frame pushed (after
   * create or reset): a start is confirmed only after `minSpeechMs`, an end only after `hangoverMs`.
   */
  boundaryMs: number | null;
};

/** Peak normalised cross-correlation from which a frame is periodic enough to be voiced. */
const VOICING = 0.6;
/** Above this zero-crossing rate a periodic frame is a tone or hiss, not a vowel (the clip's stay ≤ 0.32). */
const MAX_ZERO_CROSSINGS = 0.35;
/**
 * Unvoiced sound (an initial /h/, a final /s/) joins an utterance within this of its voiced part:
 * about one consonant; longer, and babble bursts next to speech get annexed.
 */
const EDGE_MS = 120;
/** A gap of more frames than this without voicing restarts the count towards `minSpeechMs`. */
const MAX_ONSET_GAP = 2;
const FLOOR_WINDOW_MS = 1000;
const BACKGROUND_WINDOW_MS = 1500;

/**
 * A streaming voice-activity detector for 20 ms frames. Utterances are anchored on voiced frames:
 * `thresholdDb` above an adaptive noise floor, periodic at a pitch lag and with a low zero-crossing
 * rate, so hiss, clinks, traffic swells and the presets' (unvoiced) babble do not start one; babble
 * of voiced speech above `minLevelDbfs` does (measured in test/fixtures/audio/README.md). Energy then
 * places the boundaries over unvoiced edges that also clear the background's typical level. An
 * utterance ends `hangoverMs` after its last voiced frame.
 */
export const createVad = (options: VadOptions = {}) => {
  const rate = options.sampleRate ?? 8000;
  const frameLength = samplesPerFrame(rate);
  const frameMs = (frameLength * 1000) / rate;
  const frames = (ms: number) => Math.max(1, Math.round(ms / frameMs));
  const hangover = frames(options.hangoverMs ?? 500);
  const minSpeech = frames(options.minSpeechMs ?? 60);
  const thresholdDb = options.thresholdDb ?? 9;
  const edgeMarginDb = options.edgeMarginDb ?? 6;
  const minLevelDbfs = options.minLevelDbfs ?? -55;
  const edge = frames(EDGE_MS);
  // Frames an utterance's confirmation can reach back to: its onset edge and its voiced run.
  const activeKept = edge + (MAX_ONSET_GAP + 1) * minSpeech + 1;
  const analyser = createFrameAnalyser(rate, frameLength);
  const noise = createNoiseFloor(frames(FLOOR_WINDOW_MS), frames(BACKGROUND_WINDOW_MS));
  // Recent frames' activity, newest last: enough to walk back from a confirmed start.
  const recent: boolean[] = [];
  let index = 0;
  let inUtterance = false;
  let voicedCount = 0;
  let firstVoiced = -1;
  let lastVoiced = -1;
  let tailEnd = -1; // last frame of the unbroken active run after the last voiced frame
  let previousVoiced = false;

  const reset = () => {
    analyser.reset();
    noise.reset();
    recent.length = 0;
    index = 0;
    inUtterance = false;
    voicedCount = 0;
    firstVoiced = lastVoiced = tailEnd = -1;
    previousVoiced = false;
  };

  const wasActive = (frame: number): boolean => recent[recent.length - index + frame] === true;

  /** The first frame of the unbroken active run that ends at `frame`, no more than EDGE_MS before it. */
  const onsetBefore = (frame: number): number => {
    let onset = frame;
    while (onset > frame - edge && wasActive(onset - 1)) onset--;
    return onset;
  };

  const classify = (frame: Int16Array) => {
    const { energyDbfs, zeroCrossings } = analyser.levels(frame);
    noise.hear(energyDbfs);
    const threshold = Math.max(noise.floor() + thresholdDb, minLevelDbfs);
    // voicing (a correlation at every pitch lag) last: measured only for a frame loud enough to count
    const isVoiced =
      energyDbfs > threshold && zeroCrossings <= MAX_ZERO_CROSSINGS && analyser.voicing(VOICING) >= VOICING;
    // Unvoiced frames could as well be a burst of the background: they must clear its typical level too.
    const isActive = isVoiced || energyDbfs > Math.max(threshold, noise.typical() + edgeMarginDb);
    if (!inUtterance && !isVoiced) noise.hearBackground(energyDbfs);
    recent.push(isActive);
    if (recent.length > activeKept) recent.shift();
    return { isActive, isVoiced };
  };

  /** Outside an utterance: counts voiced frames until `minSpeechMs` of them confirm a start. */
  const listen = (i: number, isVoiced: boolean): VadResult => {
    if (isVoiced) {
      if (voicedCount === 0 || i - lastVoiced > MAX_ONSET_GAP + 1) {
        voicedCount = 0;
        firstVoiced = i;
      }
      voicedCount++;
      lastVoiced = tailEnd = i;
    }
    if (voicedCount < minSpeech) return { speech: false, event: null, boundaryMs: null };
    inUtterance = true;
    return { speech: true, event: 'start', boundaryMs: onsetBefore(firstVoiced) * frameMs };
  };

  /**
   * Inside an utterance: voiced runs of two frames or more (a vowel, not a cup's clink) renew it;
   * the sound right after them, up to EDGE_MS, extends it.
   */
  const follow = (i: number, isActive: boolean, isVoiced: boolean): VadResult => {
    const sustained = isVoiced && previousVoiced;
    const edgeOfVoiced = isActive && tailEnd === i - 1 && i - lastVoiced <= edge;
    if (sustained) lastVoiced = i;
    const speech = sustained || edgeOfVoiced;
    if (speech) tailEnd = i;
    if (i - lastVoiced < hangover) return { speech, event: null, boundaryMs: null };
    inUtterance = false;
    voicedCount = 0;
    return { speech: false, event: 'end', boundaryMs: (tailEnd + 1) * frameMs };
  };

  return {
    /** Classifies the next frame (exactly 20 ms at `sampleRate`; other lengths throw a RangeError). */
    push: (frame: Int16Array): VadResult => {
      if (frame.length !== frameLength) {
        throw new RangeError(
          `VAD frames are ${frameLength} samples (${frameMs} ms at ${rate} Hz), got ${frame.length}`,
        );
      }
      const { isActive, isVoiced } = classify(frame);
      const i = index++;
      const result = inUtterance ? follow(i, isActive, isVoiced) : listen(i, isVoiced);
      previousVoiced = isVoiced;
      return result;
    },
    /** Forgets the stream: the noise floor, any open utterance, and the time origin of `boundaryMs`. */
    reset,
  };
};

/** A streaming VAD as {@link createVad} returns it. */
export type Vad = ReturnType<typeof createVad>;
