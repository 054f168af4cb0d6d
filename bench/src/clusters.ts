import { adjustedRandIndex, clusterItems } from '../../packages/server/src/clustering/index.js';

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

/**
 * Clusters the labelled set (300 flagged rationales from six failure modes) with the
 * deterministic core, no model, and scores it against the true modes by adjusted Rand index.
 */
export const clusterQuality = async ({ seed = 20261121 } = {}) => {
  const items = labelledRationales(seed);
  const started = performance.now();
  const clusters = clusterItems(items.map(({ id, text }) => ({ id, text })));
  const ms = performance.now() - started;
  const clusterOf = new Map(clusters.flatMap((cluster) => cluster.memberIds.map((id) => [id, cluster.id])));
  const ari = adjustedRandIndex(
    items.map((item) => item.mode),
    items.map((item) => clusterOf.get(item.id)),
  );
  return { ari, items: items.length, modes: MODES.length, clusters: clusters.length, ms };
};
