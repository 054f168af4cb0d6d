import { readFileSync } from 'node:fs';
import { adjustedRandIndex, clusterItems, tokenize } from '@voice-eval/server/bench-internals';

/** mulberry32: a small seeded PRNG, so the generated set is the same on every run. */
const prng = (seed: number) => () => {
  seed = (seed + 0x6d2b79f5) | 0;
  let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
  t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
  return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
};

type Random = () => number;
const pick = <T>(random: Random, list: readonly T[]): T => list[Math.floor(random() * list.length)]!;

/**
 * Six failure modes of a clinic's booking agent, each with several sentence templates whose
 * `{slot}`s take one of several wordings, as an LLM judge's rationales vary. Sizes are uneven.
 */
const MODES: ReadonlyArray<{
  name: string;
  size: number;
  templates: string[];
  slots: Record<string, string[]>;
}> = [
  {
    name: 'no_readback',
    size: 80,
    templates: [
      'The agent {booked} the appointment but never {readback} the {datetime} to the caller.',
      'After {booked2} the visit, the agent did not {confirm} the {datetime}.',
      'No {confirmation} of the {datetime} was given before the call ended.',
      'The caller was left unsure of the {datetime} because the agent skipped the {confirmation} step.',
    ],
    slots: {
      booked: ['booked', 'scheduled', 'set up', 'reserved'],
      booked2: ['booking', 'scheduling', 'arranging', 'reserving'],
      readback: ['read back', 'repeated', 'restated', 'confirmed'],
      confirm: ['confirm', 'repeat back', 'verify', 'restate'],
      confirmation: ['confirmation', 'read-back', 'recap', 'summary'],
      datetime: ['date and time', 'appointment time', 'slot', 'day and hour', 'time of the visit'],
    },
  },
  {
    name: 'wrong_price',
    size: 65,
    templates: [
      'The agent quoted {wrong} {price} for {service}.',
      'Gave the caller {wrong} {price} when asked about {service}.',
      'The {price} stated for {service} did not match the clinic price list.',
      'Told the patient that {service} costs a different amount than the listed {price}; the information was {wrong2}.',
    ],
    slots: {
      wrong: ['an incorrect', 'a wrong', 'an outdated', 'an inaccurate'],
      wrong2: ['incorrect', 'wrong', 'outdated', 'inaccurate'],
      price: ['price', 'cost', 'fee', 'amount'],
      service: ['a cleaning', 'teeth whitening', 'a check-up', 'an x-ray', 'a filling'],
    },
  },
  {
    name: 'tool_error',
    size: 50,
    templates: [
      'The {tool} returned an error and the agent could not {recover}.',
      'A {tool} {failure} happened mid-call and the agent {gaveup}.',
      'The agent said the {tool} was down after a {failure} and {gaveup}.',
    ],
    slots: {
      tool: [
        'calendar lookup',
        'scheduling system',
        'booking tool',
        'availability API',
        'calendar integration',
      ],
      failure: ['timeout', 'error', 'crash', 'outage'],
      recover: ['recover', 'retry', 'find another slot', 'continue the booking'],
      gaveup: ['gave up', 'ended the call', 'asked the caller to call back', 'stopped the booking'],
    },
  },
  {
    name: 'misheard',
    size: 45,
    templates: [
      "The agent {misheard} the caller's {detail} and used the wrong one.",
      'The {detail} was {misheard} so the record has a mistake in it.',
      'Speech recognition {garbled} the {detail}; the agent never asked the caller to spell it.',
    ],
    slots: {
      misheard: ['misheard', 'misunderstood', 'mistranscribed', 'heard incorrectly'],
      garbled: ['garbled', 'mangled', 'misrecognised', 'mixed up'],
      detail: ['phone number', 'last name', 'surname', 'date of birth digits', 'email address'],
    },
  },
  {
    name: 'no_verification',
    size: 35,
    templates: [
      "The agent shared {records} without {verifying} the caller's identity.",
      'No identity {check} was done before {disclosing} {records}.',
      'Against policy, {records} were {disclosed2} before any identity {check}.',
    ],
    slots: {
      records: ['appointment history', 'account details', 'medical records', 'billing information'],
      verifying: ['verifying', 'checking', 'confirming', 'authenticating'],
      check: ['check', 'verification', 'authentication'],
      disclosing: ['disclosing', 'sharing', 'reading out', 'giving out'],
      disclosed2: ['disclosed', 'shared', 'read out', 'revealed'],
    },
  },
  {
    name: 'latency',
    size: 25,
    templates: [
      'There was a {long} {pause} before the agent responded, and the caller {reaction}.',
      'The agent {interrupted} the caller repeatedly and {pause2} made the exchange awkward.',
      '{long2} {pause} after each question; the caller {reaction}.',
    ],
    slots: {
      long: ['long', 'noticeable', 'several-second', 'awkward'],
      long2: ['Long', 'Noticeable', 'Repeated', 'Awkward'],
      pause: ['pause', 'silence', 'delay', 'lag'],
      pause2: ['slow responses', 'long silences', 'delays', 'laggy replies'],
      interrupted: ['interrupted', 'talked over', 'cut off', 'spoke over'],
      reaction: ['asked if anyone was there', 'hung up', 'repeated the question', 'got frustrated'],
    },
  },
];

/** Filler the judge adds whatever the failure, so modes share some words. */
const OPENERS = ['', '', 'During the call, ', 'In this conversation, ', 'Overall, ', 'Unfortunately, '];
const CLOSERS = [
  '',
  '',
  ' This hurt the caller experience.',
  ' The caller seemed unhappy.',
  ' Score lowered.',
];

const fill = (random: Random, template: string, slots: Record<string, string[]>) =>
  template.replace(/\{(\w+)\}/g, (_, slot: string) => pick(random, slots[slot]!));

/** The labelled set: `size` rationales per mode, shuffled, each with its true mode. */
export const labelledRationales = (seed = 20261121) => {
  const random = prng(seed);
  const items = MODES.flatMap((mode) =>
    Array.from({ length: mode.size }, () => ({
      mode: mode.name,
      text: `${pick(random, OPENERS)}${fill(random, pick(random, mode.templates), mode.slots)}${pick(random, CLOSERS)}`,
    })),
  );
  for (let i = items.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [items[i], items[j]] = [items[j]!, items[i]!];
  }
  return items.map((item, i) => ({ ...item, id: `row-${String(i).padStart(4, '0')}` }));
};

type Labelled = { id: string; text: string; label: string };

/** The no-model core's clusters as a label per item. */
const ours = (items: readonly Labelled[]) => {
  const clusters = clusterItems(items.map(({ id, text }) => ({ id, text })));
  const clusterOf = new Map(clusters.flatMap((cluster) => cluster.memberIds.map((id) => [id, cluster.id])));
  return { labels: items.map((item) => clusterOf.get(item.id)), clusters: clusters.length };
};

/**
 * The naive baseline: each text goes to the cluster of its most frequent content word (stemmed,
 * stopwords out; frequency = number of texts of the draw using it; ties alphabetical).
 */
export const naiveClusters = (texts: readonly string[]): string[] => {
  const terms = texts.map((text) => [...new Set(tokenize(text).map((token) => token.term))]);
  const frequency = new Map<string, number>();
  for (const list of terms) for (const term of list) frequency.set(term, (frequency.get(term) ?? 0) + 1);
  return terms.map(
    (list) => [...list].sort((a, b) => frequency.get(b)! - frequency.get(a)! || (a < b ? -1 : 1))[0] ?? '',
  );
};

const ariOf = (items: readonly Labelled[], predicted: readonly unknown[]) =>
  adjustedRandIndex(
    items.map((item) => item.label),
    predicted,
  );

/** The committed CLINC150 subset (bench/data/README.md): domain, intent and text per line. */
const realSet = () => {
  const lines = readFileSync(new URL('../data/clinc150-subset.jsonl', import.meta.url), 'utf8')
    .trim()
    .split('\n');
  const byDomain = new Map<string, Map<string, string[]>>();
  for (const line of lines) {
    const { domain, intent, text } = JSON.parse(line) as { domain: string; intent: string; text: string };
    const intents = byDomain.get(domain) ?? new Map<string, string[]>();
    intents.set(intent, [...(intents.get(intent) ?? []), text]);
    byDomain.set(domain, intents);
  }
  return byDomain;
};

const shuffled = <T>(random: Random, list: readonly T[]): T[] => {
  const out = [...list];
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [out[i], out[j]] = [out[j]!, out[i]!];
  }
  return out;
};

/** Real-set draws: K from 4 to 8, `SEEDS` draws each, N texts per group. */
export const REAL_SETTINGS = { ks: [4, 5, 6, 7, 8], seeds: 20, perGroup: 40 };

/**
 * One draw: K distinct domains at random, one intent at random in each, N of its 60 texts at
 * random, shuffled, as the flagged rows of one metric would come in (a few unrelated root causes).
 */
export const drawReal = (byDomain: ReturnType<typeof realSet>, k: number, seed: number, perGroup: number) => {
  const random = prng(seed * 1000 + k);
  const items: Omit<Labelled, 'id'>[] = [];
  for (const domain of shuffled(random, [...byDomain.keys()].sort()).slice(0, k)) {
    const intents = byDomain.get(domain)!;
    const intent = pick(random, [...intents.keys()]);
    for (const text of shuffled(random, intents.get(intent)!).slice(0, perGroup))
      items.push({ text, label: intent });
  }
  return shuffled(random, items).map((item, i) => ({ ...item, id: `row-${String(i).padStart(4, '0')}` }));
};

const mean = (values: readonly number[]) => values.reduce((sum, v) => sum + v, 0) / values.length;

/**
 * Cluster quality, no model, against the naive baseline in the same run: on the real set (human
 * written CLINC150 texts, mean and worst ARI per K over the draws) and on the synthetic set (300
 * templated rationales from six failure modes, disjoint vocabularies, so nearly any method scores
 * high there).
 */
export const clusterQuality = async ({ seed = 20261121 } = {}) => {
  const out: Record<string, number> = {};
  const byDomain = realSet();
  const { ks, seeds, perGroup } = REAL_SETTINGS;
  let ms = 0;
  let runs = 0;
  for (const k of ks) {
    const scores = { ours: [] as number[], naive: [] as number[], clusters: [] as number[] };
    for (let s = 1; s <= seeds; s++) {
      const items = drawReal(byDomain, k, s, perGroup);
      const started = performance.now();
      const result = ours(items);
      ms += performance.now() - started;
      runs++;
      scores.ours.push(ariOf(items, result.labels));
      scores.clusters.push(result.clusters);
      scores.naive.push(ariOf(items, naiveClusters(items.map((item) => item.text))));
    }
    out[`real.${k}.mean`] = mean(scores.ours);
    out[`real.${k}.worst`] = Math.min(...scores.ours);
    out[`real.${k}.naiveMean`] = mean(scores.naive);
    out[`real.${k}.naiveWorst`] = Math.min(...scores.naive);
    out[`real.${k}.clusters`] = mean(scores.clusters);
  }
  out.realMs = ms / runs;
  const items = labelledRationales(seed).map(({ id, text, mode }) => ({ id, text, label: mode }));
  const started = performance.now();
  const result = ours(items);
  out.syntheticMs = performance.now() - started;
  out.syntheticAri = ariOf(items, result.labels);
  out.syntheticNaive = ariOf(items, naiveClusters(items.map((item) => item.text)));
  out.syntheticItems = items.length;
  out.syntheticModes = MODES.length;
  out.syntheticClusters = result.clusters;
  return out;
};
