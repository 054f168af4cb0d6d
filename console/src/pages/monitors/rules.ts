import type { MonitorAlert, MonitorRule } from '@voice-eval/contract';
import { count } from '../../format.ts';

/** A rate as a percentage to one decimal, without a trailing `.0`: `80%`, `51.2%`. */
export const percent = (rate: number | undefined): string =>
  rate === undefined ? '–' : `${Math.round(rate * 1000) / 10}%`;

/** A window of minutes in words: `60 min`, `2 h`, `1 day`. */
export const minutes = (m: number): string =>
  m % 1440 === 0 ? count(m / 1440, 'day') : m % 60 === 0 && m >= 120 ? `${m / 60} h` : `${m} min`;

/** When a rule fires, in a few words: `3 of the last 10 fail`, `pass rate under 80% over 60 min`. */
export const ruleInWords = (rule: MonitorRule): string => {
  switch (rule.type) {
    case 'per_call':
      return 'any call fails';
    case 'failure_count':
      return `${rule.failures} of the last ${rule.of_last} fail`;
    case 'pass_rate':
      return `pass rate under ${percent(rule.below)} over ${minutes(rule.window_minutes)}`;
    case 'drift':
      return `pass rate falls ${Math.round(rule.drop * 100)} points from one ${minutes(rule.window_minutes)} window to the next`;
    case 'new_failure':
      return `a failure not seen in ${count(rule.lookback_days, 'day')}`;
  }
};

/** What else a rule waits for before it fires, and how long it stays quiet after (for a title). */
export const ruleDetails = (rule: MonitorRule): string => {
  const sure =
    rule.type === 'pass_rate' || rule.type === 'drift'
      ? `at least ${count(rule.min_calls, 'judged call')}, ${rule.confidence * 100}% confidence; `
      : '';
  return `${sure}quiet ${minutes(rule.cooldown_minutes)} after it fires`;
};

const numberIn = (observed: Record<string, unknown>, key: string): number | undefined => {
  const value = observed[key];
  return typeof value === 'number' && Number.isFinite(value) ? value : undefined;
};

const listIn = (observed: Record<string, unknown>, key: string): unknown[] | undefined => {
  const value = observed[key];
  return Array.isArray(value) ? value : undefined;
};

/** The figures of `observed` no rule type names: each flat value as `key value`. */
const plainFigures = (observed: Record<string, unknown>): string[] =>
  Object.entries(observed)
    .filter(([, v]) => typeof v === 'number' || typeof v === 'string' || typeof v === 'boolean')
    .map(([k, v]) => `${k.replaceAll('_', ' ')} ${String(v)}`);

/**
 * The key figures an alert's rule saw (`observed`), a few short phrases per rule type; figures
 * of a shape this console does not know are listed as they are.
 */
export const alertFigures = ({
  rule_type,
  observed,
}: Pick<MonitorAlert, 'rule_type' | 'observed'>): string[] => {
  const n = (key: string) => numberIn(observed, key);
  const figures: Array<string | false> = (() => {
    switch (rule_type) {
      case 'per_call': {
        const failures = listIn(observed, 'failures');
        return [
          n('seq') !== undefined && `call #${n('seq')}`,
          failures !== undefined && `${count(failures.length, 'failure')}`,
        ];
      }
      case 'failure_count':
        return [
          n('failures') !== undefined &&
            n('calls') !== undefined &&
            `${n('failures')} of ${n('calls')} failed`,
        ];
      case 'pass_rate':
        return [
          n('pass_rate') !== undefined &&
            `pass rate ${percent(n('pass_rate'))}${n('calls') !== undefined ? ` (${n('passed') ?? '?'} of ${n('calls')})` : ''}`,
          n('wilson_upper') !== undefined && `at most ${percent(n('wilson_upper'))}`,
        ];
      case 'drift':
        return [
          n('pass_rate') !== undefined &&
            n('previous_pass_rate') !== undefined &&
            `${percent(n('previous_pass_rate'))} → ${percent(n('pass_rate'))}`,
          n('calls') !== undefined &&
            n('previous_calls') !== undefined &&
            `${n('previous_calls')} then ${count(n('calls')!, 'call')}`,
        ];
      case 'new_failure': {
        const failures = listIn(observed, 'failures');
        return [failures !== undefined && `${failures.length} new`];
      }
    }
  })();
  const known = figures.filter((f): f is string => typeof f === 'string');
  return known.length > 0 ? known : plainFigures(observed);
};
