/**
 * The audio layer of the voice channel: pure functions and small stateful helpers over
 * 16-bit PCM. G.711 μ-law for the Twilio wire, band-limited resampling, WAV and compressed-audio
 * decoding, 20 ms framing, mixing and generated ambience, a streaming VAD, a real-time frame pacer
 * and the stereo call recording. No I/O and no server modules.
 */
export { AudioFormatError } from './audio-format-error.js';
export { decodeAudio } from './decode.js';
export { FRAME_MS, samplesPerFrame, toFrames } from './frames.js';
export { AMBIENT_RMS_DBFS, dbToGain, NOMINAL_SPEECH_DBFS, rmsDbfs } from './levels.js';
export { type MixLevels, mixInto, volumeGain } from './mix.js';
export { decodeMulaw, encodeMulaw } from './mulaw.js';
export { NOISE_PRESETS, type NoisePreset, noisePreset } from './noise.js';
export { createFramePacer, type FramePacer, type FramePacerOptions } from './pacer.js';
export { createStereoRecorder, type StereoRecorder } from './recording.js';
export { resample } from './resample.js';
export { createVad, type Vad, type VadOptions, type VadResult } from './vad.js';
export { decodeWav, encodeWav, type PcmAudio, wavChannelCount } from './wav.js';
