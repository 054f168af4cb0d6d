import { describe, expect, it } from 'vitest';
import { type MetricSnapshot, readDiscoveries, readScores } from './results.js';

const metric = (overrides: Partial<MetricSnapshot>): MetricSnapshot => ({
  id: overrides.id ?? `m-${Math.random()}`,
  name: 'Metric',
  description: '',
  metric_type: 'boolean',
  selection_mode: null,
  capture_rationale: false,
  min: null,
  max: null,
  labels: [],
  policy: { failure_values: [], failure_child_names: [], numeric_rule: null },
  ...overrides,
});

const score = (key: string, value: unknown, evidence: Array<{ quote: string; turn: number }> = []) => ({
  key,
  value: value as never,
  rationale: 'because',
  evidence,
});

/** The call as the judge read it: the diarised transcript without its empty second turn. */
const turns = [
  { speaker: 'agent', text: 'Thanks for calling Bright Dental, how can I help?', index: 0 },
  { speaker: 'user', text: 'I need to move my cleaning to Friday.', index: 2 },
  { speaker: 'agent', text: 'Done: Friday at 9 AM.', index: 3 },
];

describe('readScores', () => {
  it('reads each type, accepting numbers and booleans sent as strings', () => {
    const metrics = [
      metric({ id: 'b', policy: { failure_values: ['false'], failure_child_names: [], numeric_rule: null } }),
      metric({ id: 'r', metric_type: 'rating', min: 1, max: 5 }),
      metric({ id: 'n', metric_type: 'number', min: null, max: null, capture_rationale: true }),
      metric({ id: 'c', metric_type: 'category', selection_mode: 'single_choice', labels: ['Yes', 'No'] }),
      metric({ id: 'free', metric_type: 'category', selection_mode: 'multi_label' }),
    ];
    const read = readScores(
      metrics,
      [
        score('b', 'false'),
        score('r', '4'),
        score('n', -2.5),
        score('c', [' no ']),
        score('free', ['billing', 'billing', 'tone']),
      ],
      turns,
    );
    expect(read).toMatchObject({ ok: true, flagged: true });
    if (!read.ok) return;
    expect(read.results.map((r) => r.value)).toEqual([false, 4, -2.5, 'No', ['billing', 'tone']]);
    expect(read.results.map((r) => r.rationale)).toEqual([null, null, 'because', null, null]);
    expect(read.results.map((r) => r.flagged)).toEqual([true, false, false, false, false]);
  });

  it('keeps null as "does not apply", never flagged', () => {
    const m = metric({
      id: 'b',
      policy: { failure_values: ['false'], failure_child_names: [], numeric_rule: null },
    });
    expect(readScores([m], [score('b', null)], turns)).toMatchObject({
      ok: true,
      flagged: false,
      results: [{ value: null }],
    });
  });

  it.each([
    ['a missing score', metric({ id: 'x' }), score('other', true), /no score/],
    [
      'a rating out of range',
      metric({ id: 'x', metric_type: 'rating', min: 1, max: 5 }),
      score('x', 9),
      /out of range/,
    ],
    [
      'a fractional rating',
      metric({ id: 'x', metric_type: 'rating', min: 1, max: 5 }),
      score('x', 2.5),
      /integer/,
    ],
    [
      'an unknown label',
      metric({ id: 'x', metric_type: 'category', labels: ['A'] }),
      score('x', 'B'),
      /not a label/,
    ],
    [
      'two labels for a single choice',
      metric({ id: 'x', metric_type: 'category', selection_mode: 'single_choice', labels: ['A', 'B'] }),
      score('x', ['A', 'B']),
      /exactly one/,
    ],
    ['a word for a boolean', metric({ id: 'x' }), score('x', 'maybe'), /boolean/],
  ])('refuses %s', (_, m, s, message) => {
    const read = readScores([m], [s], turns);
    expect(read.ok).toBe(false);
    if (!read.ok) expect(read.message).toMatch(message);
  });
});

describe('the evidence of a result', () => {
  const judged = (evidence: Array<{ quote: string; turn: number }>, capture_rationale = true) => {
    const read = readScores([metric({ id: 'b', capture_rationale })], [score('b', true, evidence)], turns);
    if (!read.ok) throw new Error(read.message);
    return read.results[0]!.evidence;
  };

  it("keeps each quote found in the transcript, with its turn's index in the call's transcript", () => {
    expect(
      judged([
        { quote: 'move my cleaning to Friday', turn: 2 },
        { quote: '"done: friday at 9 am."', turn: 3 },
      ]),
    ).toEqual([
      { quote: 'move my cleaning to Friday', turn_index: 2 },
      { quote: '"done: friday at 9 am."', turn_index: 3 },
    ]);
  });

  it('finds a quote the judge placed in the wrong turn, and drops quotes that were never said', () => {
    expect(
      judged([
        { quote: 'Bright Dental', turn: 3 },
        { quote: 'Your refund is on its way', turn: 1 },
        { quote: '   ', turn: 1 },
        { quote: 'Friday at 9', turn: 99 },
        { quote: 'bright   dental', turn: 1 },
      ]),
    ).toEqual([
      { quote: 'Bright Dental', turn_index: 0 },
      { quote: 'Friday at 9', turn_index: 3 },
    ]);
  });

  it('keeps at most three quotes, and none when the metric does not capture rationale', () => {
    const four = ['Thanks', 'Bright', 'cleaning', 'Friday'].map((quote) => ({ quote, turn: 1 }));
    expect(judged(four)).toHaveLength(3);
    expect(judged([{ quote: 'Bright Dental', turn: 1 }], false)).toEqual([]);
  });
});

describe('readDiscoveries', () => {
  const found = (name: string, observation = 'seen') => ({
    key: 'whatever the judge says',
    name,
    metric_type: 'boolean' as const,
    observation: ` ${observation} `,
    evidence: '',
  });

  it('keys each by the slug of its name, once, leaving out empty names and problems a metric covers', () => {
    const metrics = [metric({ name: 'Greets the caller' })];
    expect(
      readDiscoveries(metrics, [
        found('Misstates refund policy!', 'refunds denied'),
        found('misstates  refund policy', 'again'),
        found('  ?? '),
        found('Greets the Caller'),
        found('Hangs up early'),
      ]),
    ).toEqual([
      {
        key: 'misstates_refund_policy',
        name: 'Misstates refund policy!',
        metric_type: 'boolean',
        observation: 'refunds denied',
        evidence: null,
      },
      {
        key: 'hangs_up_early',
        name: 'Hangs up early',
        metric_type: 'boolean',
        observation: 'seen',
        evidence: null,
      },
    ]);
  });
});
