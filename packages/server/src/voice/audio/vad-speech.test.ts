import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import {
  espeakVersion,
  readSpeechFixture,
  readSpeechTruth,
  SPEECH_FIXTURE_DIR,
  writeSpeechFixtures,
} from '../../../test/fixtures/audio/espeak-fixtures.js';
import { absoluteSpread, scoreVad } from '../../../test/fixtures/audio/vad-score.js';

type Measured = {
  missed: number;
  falseDetections: number;
  merged: number;
  split: number;
  unended: boolean;
  /** Median and largest absolute onset and offset errors, ms. */
  onset: { medianMs: number; maxMs: number };
  offset: { medianMs: number; maxMs: number };
};

/**
 * What the VAD measured on each committed mixture (the table in test/fixtures/audio/README.md;
 * `pnpm --filter @voice-eval/server run fixtures:speech` prints it again). The bounds below are these
 * figures: counts may not grow, medians may move by half a frame and maxima by one frame.
 */
const MEASURED: Record<string, Measured> = {
  'speech-clean.wav': {
    missed: 0,
    falseDetections: 0,
    merged: 0,
    split: 2,
    unended: false,
    onset: { medianMs: 12.3125, maxMs: 80 },
    offset: { medianMs: 69.6875, maxMs: 213.25 },
  },
  'speech-babble-30db.wav': {
    missed: 0,
    falseDetections: 2,
    merged: 1,
    split: 1,
    unended: true,
    onset: { medianMs: 64.5, maxMs: 500 },
    offset: { medianMs: 75.5, maxMs: 935 },
  },
  'speech-babble-15db.wav': {
    missed: 0,
    falseDetections: 1,
    merged: 4,
    split: 1,
    unended: true,
    onset: { medianMs: 67.0625, maxMs: 574.375 },
    offset: { medianMs: 122.875, maxMs: 306.75 },
  },
  'speech-babble-5db.wav': {
    missed: 0,
    falseDetections: 2,
    merged: 4,
    split: 6,
    unended: true,
    onset: { medianMs: 87.0625, maxMs: 574.375 },
    offset: { medianMs: 125.6875, maxMs: 326.75 },
  },
};
const MEDIAN_MARGIN_MS = 10;
const MAX_MARGIN_MS = 20;

const truth = readSpeechTruth();

const expectWithin = (errors: number[], measured: Measured['onset']) => {
  const spread = absoluteSpread(errors);
  expect(spread).not.toBeNull();
  expect(spread!.medianMs).toBeLessThanOrEqual(measured.medianMs + MEDIAN_MARGIN_MS);
  expect(spread!.maxMs).toBeLessThanOrEqual(measured.maxMs + MAX_MARGIN_MS);
};

describe('createVad on espeak-ng speech, alone and in babble (test/fixtures/audio/espeak)', () => {
  it('has the measured figures of every committed mixture, and only those', () => {
    expect(truth.fixtures.map(({ file }) => file).sort()).toEqual(Object.keys(MEASURED).sort());
  });

  it('has ground truth that matches the clean mixture: speech inside each utterance, silence outside', () => {
    const clean = readSpeechFixture('speech-clean.wav');
    const inside = new Uint8Array(clean.length);
    for (const { startMs, endMs } of truth.utterances) {
      const [start, end] = [startMs * 8, endMs * 8];
      expect(Math.abs(clean[start]!)).toBeGreaterThan(0);
      expect(Math.abs(clean[end - 1]!)).toBeGreaterThan(0);
      inside.fill(1, start, end);
    }
    expect(clean.every((sample, i) => inside[i] === 1 || sample === 0)).toBe(true);
  });

  it.each(
    truth.fixtures,
  )('$file: no more missed, false, merged or split turns, nor larger boundary errors, than measured', ({
    file,
  }) => {
    const measured = MEASURED[file]!;
    const score = scoreVad(readSpeechFixture(file), truth.utterances);
    expect(score.turns).toBe(12);
    expect(score.missed).toBeLessThanOrEqual(measured.missed);
    expect(score.falseDetections).toBeLessThanOrEqual(measured.falseDetections);
    expect(score.merged).toBeLessThanOrEqual(measured.merged);
    expect(score.split).toBeLessThanOrEqual(measured.split);
    if (!measured.unended) expect(score.unended).toBe(false);
    expectWithin(score.onsetErrorsMs, measured.onset);
    expectWithin(score.offsetErrorsMs, measured.offset);
  });
});

describe('the espeak-ng fixtures', () => {
  const installed = espeakVersion();
  const dir = mkdtempSync(join(tmpdir(), 'espeak-fixtures-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  // Another espeak-ng speaks differently: the bytes are only reproducible with the version that made them.
  it.skipIf(installed !== truth.espeakNg)(
    `regenerate byte for byte (needs espeak-ng ${truth.espeakNg}, found ${installed ?? 'none'})`,
    () => {
      const file = 'speech-babble-5db.wav';
      writeSpeechFixtures(dir, [5]);
      const committed = readFileSync(join(SPEECH_FIXTURE_DIR, file));
      expect(readFileSync(join(dir, file)).equals(committed)).toBe(true);
      const regenerated = readSpeechTruth(dir);
      expect(regenerated.utterances).toEqual(truth.utterances);
      expect(regenerated.speechDbfs).toBe(truth.speechDbfs);
      expect(regenerated.fixtures).toEqual(truth.fixtures.filter(({ snrDb }) => snrDb === 5));
    },
  );
});
