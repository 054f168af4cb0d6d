import type { Metric } from '@voice-eval/contract';
import { describe, expect, it } from 'vitest';
import { choose, labelKindOf, proposalOf, sameValue, typedValue, valueText } from './choices.ts';

/** A metric of the given fields; what the labelling page does not read is left out. */
const metric = (fields: Partial<Metric>): Metric =>
  ({ metric_type: 'boolean', custom_config: {}, children: [], selection_mode: null, ...fields }) as Metric;

const child = (name: string) => ({ name }) as Metric['children'][number];

describe('how a metric is labelled', () => {
  it('chooses Yes or No for a boolean: 1 is Yes, 2 is No', () => {
    const kind = labelKindOf(metric({}));
    expect(choose(kind, undefined, 1)).toBe(true);
    expect(choose(kind, true, 2)).toBe(false);
    expect(choose(kind, true, 3)).toBeUndefined();
    expect(proposalOf(kind, false)).toBe(false);
    expect(proposalOf(kind, null)).toBeUndefined();
  });

  it('chooses a rating on its scale (1 to 5 unless configured), and types a long scale', () => {
    const five = labelKindOf(metric({ metric_type: 'rating' }));
    expect(five.kind === 'choice' && five.choices.map((c) => c.value)).toEqual([1, 2, 3, 4, 5]);
    expect(choose(five, 5, 2)).toBe(2);
    const tens = labelKindOf(metric({ metric_type: 'rating', custom_config: { min: 0, max: 10 } }));
    expect(choose(tens, undefined, 1)).toBe(0);
    expect(labelKindOf(metric({ metric_type: 'rating', custom_config: { min: 1, max: 100 } }))).toEqual({
      kind: 'number',
      min: 1,
      max: 100,
    });
    expect(proposalOf(five, 7)).toBeUndefined();
  });

  it("chooses a category's labels from its children, in the judge's proposal spelt as the metric does", () => {
    const kind = labelKindOf(
      metric({ metric_type: 'category', children: [child('Resolved'), child('Escalated')] }),
    );
    expect(choose(kind, undefined, 2)).toBe('Escalated');
    expect(proposalOf(kind, 'resolved')).toBe('Resolved');
    expect(proposalOf(kind, 'Lost')).toBeUndefined();
    const configured = labelKindOf(
      metric({ metric_type: 'category', custom_config: { labels: ['A', 'B'] } }),
    );
    expect(choose(configured, 'A', 2)).toBe('B');
  });

  it('toggles the labels of a multi-label category, kept in the order of the metric', () => {
    const kind = labelKindOf(
      metric({
        metric_type: 'category',
        selection_mode: 'multi_label',
        children: [child('Price'), child('Timing'), child('Trust')],
      }),
    );
    expect(choose(kind, undefined, 3)).toEqual(['Trust']);
    expect(choose(kind, ['Trust'], 1)).toEqual(['Price', 'Trust']);
    expect(choose(kind, ['Price', 'Trust'], 1)).toEqual(['Trust']);
    expect(proposalOf(kind, ['trust', 'price'])).toEqual(['Price', 'Trust']);
    expect(proposalOf(kind, 'Timing')).toEqual(['Timing']);
    expect(sameValue(['Trust', 'Price'], ['Price', 'Trust'])).toBe(true);
    expect(valueText(['Price', 'Trust'])).toBe('Price, Trust');
  });

  it('types a number, and a category without labels', () => {
    const kind = labelKindOf(metric({ metric_type: 'number', custom_config: { min: 0 } }));
    expect(kind).toEqual({ kind: 'number', min: 0, max: null });
    expect(choose(kind, undefined, 1)).toBeUndefined();
    expect(typedValue(kind, ' 2.5 ')).toBe(2.5);
    expect(typedValue(kind, '')).toBeUndefined();
    const free = labelKindOf(metric({ metric_type: 'category', selection_mode: 'multi_label' }));
    expect(typedValue(free, 'a, b, a')).toEqual(['a', 'b']);
    expect(valueText(true)).toBe('Yes');
    expect(valueText(undefined)).toBe('none');
  });
});
