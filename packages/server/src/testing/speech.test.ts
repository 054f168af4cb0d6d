import { describe, expect, it } from 'vitest';
import {
  createVad,
  decodeMulaw,
  encodeMulaw,
  mixInto,
  noisePreset,
  resample,
  rmsDbfs,
  toFrames,
  volumeGain,
} from '../voice/audio/index.js';
import { CLINIC_GOODBYE, CLINIC_GREETING } from './clinic-agent.js';
import { createSpeechRegistry, synthesizeSpeech } from './speech.js';

const LINES = [
  CLINIC_GREETING,
  "Hi, I'd like to book an appointment for a general checkup.",
  'My name is Alex Morgan.',
  'My name is Jamie Lee.',
  'next Monday, please.',
  "So that's next Monday, correct?",
  "So that's next Tuesday, correct?",
  "Yes, that's correct.",
  "No, that's all. Thank you, goodbye!",
  CLINIC_GOODBYE,
];
const say = (text: string) => synthesizeSpeech(text, { voice: LINES.indexOf(text) % 2 ? 'nova' : 'riley' });
const registry = createSpeechRegistry();
for (const line of LINES) registry.remember(line, say(line));

const silence = (ms: number) => new Int16Array(ms * 8);
const join = (...parts: Int16Array[]) => {
  const out = new Int16Array(parts.reduce((sum, p) => sum + p.length, 0));
  let at = 0;
  for (const part of parts) {
    out.set(part, at);
    at += part.length;
  }
  return out;
};
/** `pcm` with `gap` inserted (and `lost` samples dropped) at a 20 ms frame boundary `share` of the way in. */
const stall = (pcm: Int16Array, share: number, gap: Int16Array, lost = 0) => {
  const at = Math.round((pcm.length * share) / 160) * 160;
  return join(pcm.subarray(0, at), gap, pcm.subarray(at + lost));
};
const withNoise = (pcm: Int16Array, preset: 'cafe' | 'street' | 'call_center', volume: number) => {
  const mixed = pcm.slice();
  mixInto(mixed, noisePreset(preset, 8000, pcm.length / 8, 7), volumeGain(volume));
  return mixed;
};
/** The VAD's utterances in `pcm` as [startMs, endMs]. */
const vadUtterances = (pcm: Int16Array) => {
  const vad = createVad({ sampleRate: 8000 });
  const found: number[][] = [];
  for (const frame of toFrames(join(pcm, silence(1500)), 8000)) {
    const { event, boundaryMs } = vad.push(frame);
    if (event === 'start') found.push([boundaryMs!]);
    if (event === 'end') found[found.length - 1]!.push(boundaryMs!);
  }
  return found;
};

describe('synthesizeSpeech', () => {
  it('is deterministic, voice-dependent, and the same speech at any sample rate', () => {
    expect(say(LINES[2]!)).toEqual(say(LINES[2]!));
    expect(synthesizeSpeech(LINES[2]!, { voice: 'onyx' })).not.toEqual(
      synthesizeSpeech(LINES[2]!, { voice: 'nova' }),
    );
    const at24k = synthesizeSpeech(LINES[2]!, { voice: 'nova', sampleRate: 24_000 });
    expect(Math.abs(at24k.length - 3 * say(LINES[2]!).length)).toBeLessThan(30);
    expect(registry.recognize(resample(at24k, 24_000, 8000))).toEqual([LINES[2]]);
  });

  it('speaks about 150 words a minute at a speech level, in words separated by silence', () => {
    const text = `${CLINIC_GREETING} ${LINES[1]} We are open from nine to five, Monday to Friday, and on Saturday mornings.`;
    const words = text.split(/\s+/).length;
    const pcm = say(text);
    const wpm = words / (pcm.length / 8000 / 60);
    expect(wpm).toBeGreaterThan(130);
    expect(wpm).toBeLessThan(175);
    const frames = toFrames(pcm, 8000);
    const active = frames.filter((f) => f.some((s) => s !== 0));
    expect(rmsDbfs(join(...active))).toBeGreaterThan(-26);
    expect(rmsDbfs(join(...active))).toBeLessThan(-16);
    expect(rmsDbfs(frames[0]!)).toBeGreaterThan(-40); // no leading silence
    let [gaps, zeros] = [0, 0];
    for (const sample of pcm) {
      zeros = sample === 0 ? zeros + 1 : 0;
      if (zeros === 480) gaps += 1; // 60 ms of digital silence
    }
    expect(gaps).toBe(words - 1);
    expect(synthesizeSpeech(text, { speed: 2 }).length).toBeLessThan(pcm.length / 1.9);
  });

  it('is one utterance to a VAD, in silence and under ambient noise, and noise alone is none', () => {
    for (const line of [CLINIC_GREETING, LINES[7]!, LINES[8]!]) {
      const speech = say(line);
      const endMs = 1000 + speech.length / 8;
      for (const pcm of [join(silence(1000), speech), withNoise(join(silence(1000), speech), 'cafe', 0.3)]) {
        const [[start = 0, end = 0] = [], ...more] = vadUtterances(pcm);
        expect(more).toEqual([]);
        expect(Math.abs(start - 1000)).toBeLessThanOrEqual(100);
        expect(Math.abs(end - endMs)).toBeLessThanOrEqual(150);
      }
    }
    const two = join(silence(500), say(LINES[2]!), silence(1200), say(LINES[4]!));
    expect(vadUtterances(two)).toHaveLength(2);
    expect(vadUtterances(withNoise(silence(5000), 'street', 0.3))).toEqual([]);
  });
});

describe('createSpeechRegistry', () => {
  const cases: Array<[string, (pcm: Int16Array) => Int16Array]> = [
    ['as remembered', (pcm) => pcm],
    ['after a μ-law round trip', (pcm) => decodeMulaw(encodeMulaw(pcm))],
    ['resampled to 24 kHz and back', (pcm) => resample(resample(pcm, 8000, 24_000), 24_000, 8000)],
    ['with 100 ms cut from the start', (pcm) => pcm.subarray(800)],
    ['with 100 ms cut from the end', (pcm) => pcm.subarray(0, pcm.length - 800)],
    ['with 100 ms of silence around it', (pcm) => join(silence(100), pcm, silence(100))],
    [
      'under cafe noise at volume 0.3',
      (pcm) => withNoise(join(silence(400), pcm, silence(600)), 'cafe', 0.3),
    ],
    [
      'under street noise at volume 0.3',
      (pcm) => withNoise(join(silence(400), pcm, silence(600)), 'street', 0.3),
    ],
    ['under call-centre babble at volume 0.3', (pcm) => withNoise(pcm, 'call_center', 0.3)],
    ['with a 60 ms gap where the stream stalled', (pcm) => stall(pcm, 0.4, new Int16Array(480))],
    ['with a 20 ms frame lost', (pcm) => stall(pcm, 0.6, new Int16Array(0), 160)],
    [
      'all of that at once',
      (pcm) => decodeMulaw(encodeMulaw(withNoise(join(silence(80), pcm.subarray(640)), 'cafe', 0.3))),
    ],
  ];
  for (const [name, transform] of cases) {
    it(`recognises an utterance ${name}`, () => {
      for (const line of LINES) expect(registry.recognize(transform(say(line)))).toEqual([line]);
    });
  }

  it('finds several utterances among other audio, in time order and at their times', () => {
    const other = synthesizeSpeech('The weather is lovely this afternoon.', { voice: 'echo' });
    const pcm = withNoise(
      join(
        other,
        silence(300),
        say(LINES[2]!),
        silence(700),
        say(LINES[5]!),
        silence(200),
        other,
        silence(300),
        say(LINES[9]!),
      ),
      'cafe',
      0.3,
    );
    const found = registry.recognizeTimed(pcm);
    expect(found.map((u) => u.text)).toEqual([LINES[2], LINES[5], LINES[9]]);
    const start = other.length / 8 + 300;
    expect(Math.abs(found[0]!.startMs - start)).toBeLessThanOrEqual(20);
    expect(Math.abs(found[0]!.endMs - (start + say(LINES[2]!).length / 8))).toBeLessThanOrEqual(30);
    expect(found.every((u) => u.complete && u.score > 0.85)).toBe(true);
  });

  it('does not take other speech, a one-word difference, noise or silence for a remembered utterance', () => {
    expect(registry.recognize(say('Could you spell that for me, please?'))).toEqual([]);
    expect(registry.recognize(say("So that's next Friday, correct?"))).toEqual([]);
    expect(registry.recognize(say('My name is Jordan Smith.'))).toEqual([]);
    expect(registry.recognize(noisePreset('call_center', 8000, 5000))).toEqual([]);
    expect(registry.recognize(silence(3000))).toEqual([]);
    expect(registry.recognize(new Int16Array(0))).toEqual([]);
  });

  it('recognises the words an utterance got out before it broke off into silence', () => {
    const greeting = say(CLINIC_GREETING);
    const cut = join(greeting.subarray(0, Math.round(greeting.length * 0.55)), silence(800));
    const [heard, ...rest] = registry.recognizeTimed(withNoise(cut, 'cafe', 0.3));
    expect(rest).toEqual([]);
    expect(heard).toMatchObject({ complete: false, fullText: CLINIC_GREETING });
    expect(CLINIC_GREETING.startsWith(heard!.text)).toBe(true);
    expect(heard!.text.split(' ').length).toBeGreaterThanOrEqual(5);
    expect(heard!.text.split(' ').length).toBeLessThan(CLINIC_GREETING.split(' ').length);
    // a caller still talking: the audio ends mid-utterance
    expect(registry.recognizeTimed(say(LINES[1]!).subarray(0, 8 * 1500))[0]).toMatchObject({
      complete: false,
      fullText: LINES[1],
    });
  });

  it('remembers each rendition once', () => {
    const own = createSpeechRegistry();
    own.remember('Hello there.', say('Hello there.'));
    own.remember('Hello there.', say('Hello there.'));
    own.remember('  ', say('Hello there.'));
    expect(own.size()).toBe(1);
    own.remember('Hello there.', synthesizeSpeech('Hello there.', { voice: 'onyx' }));
    expect(own.size()).toBe(2);
  });

  it('answers the same audio alike again, and anew once it remembers more', () => {
    const own = createSpeechRegistry();
    const audio = say('My name is Alex Morgan.');
    own.remember('Hello there.', say('Hello there.'));
    expect(own.recognize(audio)).toEqual([]);
    own.remember('My name is Alex Morgan.', audio);
    const first = own.recognizeTimed(audio);
    expect(first.map((u) => u.text)).toEqual(['My name is Alex Morgan.']);
    first[0]!.text = 'changed by the caller';
    expect(own.recognizeTimed(audio.slice())).toEqual([{ ...first[0], text: 'My name is Alex Morgan.' }]);
  });
});
