import type { MonitorRule } from '@voice-eval/contract';
import { wilsonInterval } from '../../stats/index.js';

/** Calls scored in a window: how many, and how many passed. */
export type Tally = { passed: number; total: number };

/** The two-sided z of each confidence level a rule may ask for. */
const Z = { 0.9: 1.6449, 0.95: 1.96, 0.99: 2.5758 } as const;

/**
 * The Wilson score interval of a pass rate (the kernel's): where the true rate lies at this
 * confidence. With no calls, the whole range.
 */
export const wilson = ({ passed, total }: Tally, confidence: keyof typeof Z) => {
  const interval = wilsonInterval(passed, total, Z[confidence]);
  return interval ? { lower: interval.low, upper: interval.high } : { lower: 0, upper: 1 };
};

const round = (value: number) => Math.round(value * 10_000) / 10_000;
const percent = (value: number) => `${Math.round(value * 1000) / 10}%`;

/** What a rule saw when it fired: one sentence, and its figures. */
export type Firing = { summary: string; observed: Record<string, unknown> };

type Rule<T extends MonitorRule['type']> = Extract<MonitorRule, { type: T }>;

/** `failure_count`: at least k failures among the last N scored calls (newest first). */
export const failureCountFires = (rule: Rule<'failure_count'>, recent: readonly boolean[]): Firing | null => {
  const window = recent.slice(0, rule.of_last);
  const failures = window.filter((failed) => failed).length;
  if (window.length < rule.failures || failures < rule.failures) return null;
  return {
    summary: `${failures} of the last ${window.length} scored calls failed (the rule fires at ${rule.failures} of ${rule.of_last}).`,
    observed: { failures, calls: window.length, failures_threshold: rule.failures, of_last: rule.of_last },
  };
};

/**
 * `pass_rate`: the window's pass rate is under `below`, and so is the Wilson upper bound, so a few
 * unlucky calls do not fire it; never with fewer than `min_calls` calls.
 */
export const passRateFires = (rule: Rule<'pass_rate'>, window: Tally): Firing | null => {
  if (window.total < rule.min_calls) return null;
  const rate = window.passed / window.total;
  const bounds = wilson(window, rule.confidence);
  if (rate >= rule.below || bounds.upper >= rule.below) return null;
  return {
    summary: `Pass rate ${percent(rate)} over the last ${rule.window_minutes} min (${window.passed} of ${window.total}); at ${rule.confidence * 100}% confidence it is under ${percent(bounds.upper)}, below the ${percent(rule.below)} threshold.`,
    observed: {
      pass_rate: round(rate),
      passed: window.passed,
      calls: window.total,
      wilson_lower: round(bounds.lower),
      wilson_upper: round(bounds.upper),
      below: rule.below,
      window_minutes: rule.window_minutes,
    },
  };
};

/**
 * `drift`: the pass rate fell by at least `drop` from the previous window to this one, and the two
 * windows' Wilson intervals do not overlap (the fall is not noise).
 */
export const driftFires = (rule: Rule<'drift'>, current: Tally, previous: Tally): Firing | null => {
  if (current.total < rule.min_calls || previous.total < rule.min_calls) return null;
  const now = current.passed / current.total;
  const before = previous.passed / previous.total;
  const a = wilson(current, rule.confidence);
  const b = wilson(previous, rule.confidence);
  if (before - now < rule.drop || a.upper >= b.lower) return null;
  return {
    summary: `Pass rate fell from ${percent(before)} to ${percent(now)} between the previous ${rule.window_minutes} min and the last.`,
    observed: {
      pass_rate: round(now),
      previous_pass_rate: round(before),
      calls: current.total,
      previous_calls: previous.total,
      wilson_upper: round(a.upper),
      previous_wilson_lower: round(b.lower),
      drop: rule.drop,
      window_minutes: rule.window_minutes,
    },
  };
};

/** `new_failure`: failure keys of the new calls that none of the lookback's calls had. */
export const newFailureFires = (
  rule: Rule<'new_failure'>,
  keys: readonly string[],
  seenBefore: ReadonlySet<string>,
  label: (key: string) => string,
): Firing | null => {
  const fresh = [...new Set(keys)].filter((key) => !seenBefore.has(key));
  if (fresh.length === 0) return null;
  return {
    summary: `New failure in the last ${rule.lookback_days} days: ${fresh.map(label).join(', ')}.`,
    observed: { failures: fresh, lookback_days: rule.lookback_days },
  };
};
