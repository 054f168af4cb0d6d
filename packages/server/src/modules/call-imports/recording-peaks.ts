import type { RecordingPeaks } from '@voice-eval/contract';
import type { RequestContext } from '../../context.js';
import type { Deps } from '../../deps.js';
import { ApiError } from '../../errors.js';
import { AudioFormatError, decodeWav, type PcmAudio } from '../../voice/audio/index.js';
import { getRow, storedKeyOf } from './recording-access.js';

/**
 * Per channel, the largest absolute sample of each of `points` equal slices of the recording,
 * scaled to 0..1 and rounded to 4 decimals (fewer slices when the recording has fewer frames).
 */
export const peaksOf = ({ sampleRate, channels }: PcmAudio, points: number): RecordingPeaks => {
  const frames = channels[0]?.length ?? 0;
  const slices = Math.max(1, Math.min(points, frames));
  const summary = channels.map((samples) => {
    const peaks: number[] = [];
    for (let i = 0; i < slices; i++) {
      const to = Math.floor(((i + 1) * frames) / slices);
      let max = 0;
      for (let f = Math.floor((i * frames) / slices); f < to; f++) {
        const value = Math.abs(samples[f]!);
        if (value > max) max = value;
      }
      peaks.push(Math.round((Math.min(max, 32767) / 32767) * 10_000) / 10_000);
    }
    return peaks;
  });
  return {
    duration_ms: Math.round((frames / sampleRate) * 1000),
    sample_rate: sampleRate,
    channels: summary,
  };
};

/**
 * The peaks of a row's stored WAV recording, for a client to draw its waveform while the audio
 * streams. Computed on each request from the stored file (a 10-minute stereo call decodes in
 * tens of milliseconds); a recording in another format is 415.
 */
export const recordingPeaks = async (
  deps: Deps,
  ctx: RequestContext,
  callImportId: string,
  rowId: string,
  points: number,
): Promise<RecordingPeaks> => {
  const row = await getRow(deps, ctx, callImportId, rowId);
  const bytes = await deps.storage.get(storedKeyOf(row));
  if (!bytes) throw new ApiError('not_found', 'The stored recording is missing from storage.');
  try {
    return peaksOf(decodeWav(bytes), points);
  } catch (error) {
    if (!(error instanceof AudioFormatError)) throw error;
    throw new ApiError(
      'unsupported_media_type',
      `Peaks are drawn from WAV recordings only; this one could not be read as one (${error.message}).`,
    );
  }
};
