import type { MonitorRule } from '@voice-eval/contract';
import { describe, expect, it } from 'vitest';
import { driftFires, failureCountFires, newFailureFires, passRateFires, wilson } from './rules.js';

const passRate = {
  id: 'r1',
  type: 'pass_rate',
  below: 0.8,
  window_minutes: 60,
  min_calls: 10,
  confidence: 0.95,
  cooldown_minutes: 60,
} satisfies MonitorRule;

describe('wilson', () => {
  it('matches the textbook interval (8 of 10 at 95%: 0.4902 to 0.9433)', () => {
    const { lower, upper } = wilson({ passed: 8, total: 10 }, 0.95);
    expect(lower).toBeCloseTo(0.4902, 3);
    expect(upper).toBeCloseTo(0.9433, 3);
  });

  it('is the whole range with no calls, and stays within 0 and 1', () => {
    expect(wilson({ passed: 0, total: 0 }, 0.95)).toEqual({ lower: 0, upper: 1 });
    const all = wilson({ passed: 20, total: 20 }, 0.99);
    expect(all.upper).toBe(1);
    expect(all.lower).toBeGreaterThan(0.7);
  });
});

describe('passRateFires', () => {
  it('does not fire on a low rate the interval does not confirm (7 of 10 against 0.8)', () => {
    expect(passRateFires(passRate, { passed: 7, total: 10 })).toBeNull();
  });

  it('fires when the upper bound is under the threshold (2 of 12)', () => {
    const fired = passRateFires(passRate, { passed: 2, total: 12 });
    expect(fired?.observed).toMatchObject({ passed: 2, calls: 12, below: 0.8 });
    expect(fired?.observed.wilson_upper as number).toBeLessThan(0.8);
  });

  it('never fires under min_calls, however bad', () => {
    expect(passRateFires(passRate, { passed: 0, total: 9 })).toBeNull();
  });
});

describe('failureCountFires', () => {
  const rule = { id: 'r', type: 'failure_count', failures: 3, of_last: 5, cooldown_minutes: 60 } as const;
  it('counts the newest of_last calls only', () => {
    expect(failureCountFires(rule, [true, true, false, false, false, true, true])).toBeNull();
    expect(failureCountFires(rule, [true, false, true, false, true, false])?.observed).toMatchObject({
      failures: 3,
      calls: 5,
    });
  });
});

describe('driftFires', () => {
  const rule = {
    id: 'd',
    type: 'drift',
    drop: 0.1,
    window_minutes: 60,
    min_calls: 10,
    confidence: 0.95,
    cooldown_minutes: 60,
  } as const;
  it('fires on a fall the intervals separate, not on one they do not', () => {
    expect(driftFires(rule, { passed: 10, total: 40 }, { passed: 38, total: 40 })).not.toBeNull();
    expect(driftFires(rule, { passed: 8, total: 10 }, { passed: 10, total: 10 })).toBeNull();
  });
});

describe('newFailureFires', () => {
  const rule = { id: 'n', type: 'new_failure', lookback_days: 7, cooldown_minutes: 60 } as const;
  it('names only the keys the lookback had not seen', () => {
    const fired = newFailureFires(
      rule,
      ['metric:a', 'metric:b', 'metric:b'],
      new Set(['metric:a']),
      (k) => k,
    );
    expect(fired?.observed.failures).toEqual(['metric:b']);
    expect(newFailureFires(rule, ['metric:a'], new Set(['metric:a']), (k) => k)).toBeNull();
  });
});
