/**
 * Regenerates the espeak-ng speech fixtures (test/fixtures/audio/espeak/, see the README there) and
 * prints what the VAD measures on them: `pnpm --filter @voice-eval/server run fixtures:speech [dir]
 * [snrs]`, where `snrs` lists other mixtures to make instead (`clean,40,30`; dB). Needs espeak-ng.
 */
import {
  readSpeechFixture,
  readSpeechTruth,
  SPEECH_FIXTURE_DIR,
  writeSpeechFixtures,
} from '../test/fixtures/audio/espeak-fixtures.js';
import { absoluteSpread, scoreVad } from '../test/fixtures/audio/vad-score.js';

const [dir = SPEECH_FIXTURE_DIR, snrs] = process.argv.slice(2);
const written = writeSpeechFixtures(
  dir,
  snrs?.split(',').map((snr) => (snr === 'clean' ? null : Number(snr))),
);
const truth = readSpeechTruth(dir);
console.log(`espeak-ng ${truth.espeakNg}: wrote ${written.join(', ')} to ${dir}`);

const spread = (errors: number[]) => {
  const found = absoluteSpread(errors);
  const signed = errors.map((e) => Math.round(e)).join(' ');
  return found ? `median ${found.medianMs} max ${found.maxMs} (${signed})` : 'none';
};
for (const { file, snrDb } of truth.fixtures) {
  const score = scoreVad(readSpeechFixture(file, dir), truth.utterances);
  console.log(`\n${file} (${snrDb === null ? 'clean' : `${snrDb} dB SNR`})`);
  console.log(`  turns ${score.turns}, detections ${score.detections}, unended ${score.unended}`);
  console.log(
    `  missed ${score.missed}, false ${score.falseDetections}, merged ${score.merged}, split ${score.split}`,
  );
  console.log(`  onset |error| ms: ${spread(score.onsetErrorsMs)}`);
  console.log(`  offset |error| ms: ${spread(score.offsetErrorsMs)}`);
}
