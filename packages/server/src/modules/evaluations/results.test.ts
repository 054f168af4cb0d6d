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

const score = (key: string, value: unknown) => ({
  key,
  value: value as never,
  rationale: 'because',
  evidence: null,
});

describe('readScores', () => {
  it('reads each type, accepting numbers and booleans sent as strings', () => {
    const metrics = [
      metric({ id: 'b', policy: { failure_values: ['false'], failure_child_names: [], numeric_rule: null } }),
      metric({ id: 'r', metric_type: 'rating', min: 1, max: 5 }),
      metric({ id: 'n', metric_type: 'number', min: null, max: null, capture_rationale: true }),
      metric({ id: 'c', metric_type: 'category', selection_mode: 'single_choice', labels: ['Yes', 'No'] }),
      metric({ id: 'free', metric_type: 'category', selection_mode: 'multi_label' }),
    ];
    const read = readScores(metrics, [
      score('b', 'false'),
      score('r', '4'),
      score('n', -2.5),
      score('c', [' no ']),
      score('free', ['billing', 'billing', 'tone']),
    ]);
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
    expect(readScores([m], [score('b', null)])).toMatchObject({
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
    const read = readScores([m], [s]);
    expect(read.ok).toBe(false);
    if (!read.ok) expect(read.message).toMatch(message);
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
