import type { MonitorRule } from '@voice-eval/contract';
import { describe, expect, it } from 'vitest';
import { alertFigures, minutes, ruleInWords } from './rules.ts';

/** A stored rule of the given fields, with the id and cooldown every rule has. */
const rule = (r: Record<string, unknown> & { type: MonitorRule['type'] }): MonitorRule =>
  ({ id: 'r1', cooldown_minutes: 60, ...r }) as MonitorRule;

describe('rules in words', () => {
  it('says when each rule type fires', () => {
    expect(ruleInWords(rule({ type: 'failure_count', failures: 3, of_last: 10 }))).toBe(
      '3 of the last 10 fail',
    );
    expect(
      ruleInWords(
        rule({ type: 'pass_rate', below: 0.8, window_minutes: 60, min_calls: 10, confidence: 0.95 }),
      ),
    ).toBe('pass rate under 80% over 60 min');
    expect(ruleInWords(rule({ type: 'per_call' }))).toBe('any call fails');
    expect(ruleInWords(rule({ type: 'new_failure', lookback_days: 7 }))).toBe('a failure not seen in 7 days');
    expect(
      ruleInWords(rule({ type: 'drift', drop: 0.1, window_minutes: 1440, min_calls: 10, confidence: 0.95 })),
    ).toBe('pass rate falls 10 points from one 1 day window to the next');
  });

  it('writes windows in the unit they are round in', () => {
    expect([minutes(45), minutes(60), minutes(120), minutes(2880)]).toEqual([
      '45 min',
      '60 min',
      '2 h',
      '2 days',
    ]);
  });
});

describe('alert figures', () => {
  it('picks the figures of each rule type', () => {
    expect(
      alertFigures({
        rule_type: 'pass_rate',
        observed: { pass_rate: 0.2, passed: 2, calls: 10, wilson_upper: 0.5101, below: 0.8 },
      }),
    ).toEqual(['pass rate 20% (2 of 10)', 'at most 51%']);
    expect(alertFigures({ rule_type: 'per_call', observed: { failures: ['metric:a'], seq: 4 } })).toEqual([
      'call #4',
      '1 failure',
    ]);
    expect(
      alertFigures({
        rule_type: 'drift',
        observed: { pass_rate: 0.4, previous_pass_rate: 0.9, calls: 20, previous_calls: 30 },
      }),
    ).toEqual(['90% → 40%', '30 then 20 calls']);
  });

  it('lists figures of an unknown shape as they are', () => {
    expect(
      alertFigures({ rule_type: 'failure_count', observed: { seen: 3, note: 'x', nested: {} } }),
    ).toEqual(['seen 3', 'note x']);
  });
});
