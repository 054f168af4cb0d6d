/**
 * Levels in dBFS relative to 32768, so a full-scale square wave is 0 dBFS and a full-scale sine
 * about −3 dBFS (the dBov convention of ITU-T telephony measurements).
 */

/** Below this a level is treated as digital silence; keeps logarithms finite in feature code. */
export const SILENCE_DBFS = -120;

/**
 * Nominal active speech level of telephony test material (ITU-T P.56/P.501: −26 dBov), the
 * speech level {@link volumeGain} assumes when the caller does not measure one.
 */
export const NOMINAL_SPEECH_DBFS = -26;

/** Root-mean-square level of `pcm` in dBFS; −Infinity for empty or all-zero input. */
export const rmsDbfs = (pcm: Int16Array): number => {
  if (pcm.length === 0) return Number.NEGATIVE_INFINITY;
  let sum = 0;
  for (let i = 0; i < pcm.length; i++) sum += pcm[i]! * pcm[i]!;
  return 10 * Math.log10(sum / pcm.length / (32768 * 32768));
};

/** The linear amplitude factor of a change of `db` decibels. */
export const dbToGain = (db: number): number => 10 ** (db / 20);

/** The RMS level every noise preset is generated at; uploaded ambience is measured instead. */
export const AMBIENT_RMS_DBFS = -30;
