import type { MetricComparison } from '@voice-eval/contract';
import { createVoiceEvalMocks } from '@voice-eval/sdk/msw';
import { describe, expect, it } from 'vitest';
import { evaluateGate } from './run-suite-gate.js';

// Only the fixtures: schema-valid runs and comparisons to decide on.
const { fixtures } = createVoiceEvalMocks();

const completed = (pass_rate: number | null) => fixtures.suiteRun({ status: 'completed', pass_rate });

const metric = (change: Partial<MetricComparison>): MetricComparison => ({
  metric_id: crypto.randomUUID(),
  metric_name: 'Greets the caller',
  current: { scored: 10, passed: 5, pass_rate: 0.5, ci_low: 0.2, ci_high: 0.8 },
  baseline: { scored: 10, passed: 9, pass_rate: 0.9, ci_low: 0.6, ci_high: 1 },
  delta: -0.4,
  p_value: 0.14,
  significant: false,
  regression: false,
  version: 1,
  baseline_version: 1,
  version_changed: false,
  judge_flip_rate: null,
  within_judge_noise: false,
  ...change,
});

const compared = (metrics: MetricComparison[], regressed = false) =>
  fixtures.suiteRunComparison({ baseline_run_id: crypto.randomUUID(), metrics, combinations: [], regressed });

describe('evaluateGate', () => {
  it("notes the server's warnings, such as a metric scored with two versions, without failing", () => {
    const comparison = {
      ...compared([metric({ version: 2, version_changed: true })]),
      warnings: ['"Greets the caller" was scored with version 2 here and version 1 in the baseline.'],
    };
    expect(evaluateGate(completed(0.9), comparison, 0.8)).toEqual({
      passed: true,
      reasons: [],
      notes: [
        'Greets the caller dropped 40.0 pts (p = 0.140), not significant',
        'warning: "Greets the caller" was scored with version 2 here and version 1 in the baseline.',
      ],
    });
  });

  it('compares the pass rate with the threshold, inclusively', () => {
    expect(evaluateGate(completed(0.8), undefined, 0.8)).toEqual({ passed: true, reasons: [], notes: [] });
    expect(evaluateGate(completed(0.79), undefined, 0.8)).toMatchObject({
      passed: false,
      reasons: ['pass rate 79.0% is below 80.0%'],
    });
    expect(evaluateGate(completed(0), undefined, undefined).passed).toBe(true);
  });

  it('fails a threshold it cannot check: no call was scored', () => {
    expect(evaluateGate(completed(null), undefined, 0.5)).toMatchObject({
      passed: false,
      reasons: ['the run has no pass rate (no call was scored)'],
    });
  });

  it('fails a run that did not complete, whatever the threshold', () => {
    const cancelled = fixtures.suiteRun({ status: 'cancelled', pass_rate: 1, error_message: null });
    expect(evaluateGate(cancelled, undefined, undefined)).toMatchObject({
      passed: false,
      reasons: ['the run ended cancelled'],
    });
  });

  it('a significant drop fails even when the server left `regression` unset; a non-significant one is a note', () => {
    const significant = metric({ significant: true, p_value: 0.01 });
    expect(evaluateGate(completed(0.9), compared([significant]), undefined)).toMatchObject({
      passed: false,
      reasons: ['significant regression on Greets the caller'],
    });
    expect(evaluateGate(completed(0.9), compared([metric({})]), undefined)).toEqual({
      passed: true,
      reasons: [],
      notes: ['Greets the caller dropped 40.0 pts (p = 0.140), not significant'],
    });
    // a significant improvement is no regression
    const better = metric({ significant: true, delta: 0.4, p_value: 0.01 });
    expect(evaluateGate(completed(0.9), compared([better]), undefined).passed).toBe(true);
  });

  it('trusts the server flagging a regression the metrics do not show', () => {
    expect(evaluateGate(completed(0.9), compared([], true), undefined)).toMatchObject({ passed: false });
  });

  it('without a baseline run only the threshold applies, and says so', () => {
    const none = fixtures.suiteRunComparison({ baseline_run_id: null, metrics: [], combinations: [] });
    expect(evaluateGate(completed(0.9), none, 0.5)).toEqual({
      passed: true,
      reasons: [],
      notes: ['no earlier completed run to compare with: the gate uses only --fail-under'],
    });
  });
});
