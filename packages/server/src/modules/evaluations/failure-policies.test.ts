import type { Metric } from '@voice-eval/contract';
import { describe, expect, it } from 'vitest';
import { fingerprintOf, inferPolicy, isFailure, keyByName, type PolicyRule } from './failure-policies.js';

const metric = (overrides: Partial<Metric>): Metric =>
  ({
    id: '00000000-0000-4000-8000-000000000001',
    name: 'M',
    metric_type: 'boolean',
    custom_config: {},
    children: [],
    ...overrides,
  }) as Metric;

const child = (name: string) => ({ name }) as Metric['children'][number];

describe('inferPolicy', () => {
  it('fails booleans on false', () => {
    expect(inferPolicy(metric({}))).toEqual({
      failure_values: ['false'],
      failure_child_names: [],
      numeric_rule: null,
    });
  });

  it('fails ratings below the middle of their range (1..5 by default)', () => {
    expect(inferPolicy(metric({ metric_type: 'rating' })).numeric_rule).toEqual({ operator: 'lt', value: 3 });
    expect(
      inferPolicy(metric({ metric_type: 'rating', custom_config: { min: 0, max: 10 } })).numeric_rule,
    ).toEqual({
      operator: 'lt',
      value: 5,
    });
  });

  it('fails numbers only when they have a range', () => {
    expect(inferPolicy(metric({ metric_type: 'number' })).numeric_rule).toBeNull();
    expect(
      inferPolicy(metric({ metric_type: 'number', custom_config: { min: 0, max: 100 } })).numeric_rule,
    ).toEqual({
      operator: 'lt',
      value: 50,
    });
  });

  it('fails category children and labels that read as bad outcomes', () => {
    const inferred = inferPolicy(
      metric({
        metric_type: 'category',
        children: [child('Resolved'), child('Not resolved'), child('Escalated'), child('Information given')],
        custom_config: { labels: ['Happy', 'Wrong answer'] },
      }),
    );
    expect(inferred.failure_child_names).toEqual(['Not resolved', 'Escalated']);
    expect(inferred.failure_values).toEqual(['Wrong answer']);
  });
});

describe('isFailure', () => {
  const policy: PolicyRule = {
    failure_values: ['false'],
    failure_child_names: ['Escalated'],
    numeric_rule: { operator: 'lte', value: 2 },
  };

  it.each([
    [false, true],
    [true, false],
    [null, false],
    [2, true],
    [3, false],
    ['escalated', true],
    ['Resolved', false],
    [['Resolved', 'Escalated'], true],
    [[], false],
  ])('%j -> %s', (value, expected) => {
    expect(isFailure(policy, value)).toBe(expected);
  });

  it('applies each numeric operator', () => {
    const at = (operator: 'lt' | 'lte' | 'gt' | 'gte' | 'eq', value: number) =>
      isFailure({ failure_values: [], failure_child_names: [], numeric_rule: { operator, value: 5 } }, value);
    expect([
      at('lt', 4),
      at('lt', 5),
      at('lte', 5),
      at('gt', 6),
      at('gt', 5),
      at('gte', 5),
      at('eq', 5),
      at('eq', 4),
    ]).toEqual([true, false, true, true, false, true, true, false]);
  });
});

describe('keyByName and fingerprintOf', () => {
  it('keys a repeated name with its metric id', () => {
    const a = metric({ id: 'a', name: 'Politeness' });
    const b = metric({ id: 'b', name: 'Politeness' });
    const policy = (id: string) => ({
      metric_id: id,
      failure_values: [],
      failure_child_names: [],
      numeric_rule: null,
    });
    const keyed = keyByName([
      { metric: a, policy: policy('a'), configured: false },
      { metric: b, policy: policy('b'), configured: false },
    ]);
    expect(keyed.map((k) => k.key)).toEqual(['Politeness', 'Politeness (b)']);
  });

  it('changes when a policy changes, not when the order does', () => {
    const p1 = { metric_id: 'a', failure_values: ['false'], failure_child_names: [], numeric_rule: null };
    const p2 = {
      metric_id: 'b',
      failure_values: [],
      failure_child_names: [],
      numeric_rule: { operator: 'lt' as const, value: 3 },
    };
    expect(fingerprintOf([p1, p2])).toBe(fingerprintOf([p2, p1]));
    expect(fingerprintOf([p1, p2])).not.toBe(
      fingerprintOf([p1, { ...p2, numeric_rule: { operator: 'lt', value: 4 } }]),
    );
  });
});
