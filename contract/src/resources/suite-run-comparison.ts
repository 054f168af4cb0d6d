import { z } from 'zod';
import { Uuid } from '../common.js';

/** A suite run compared with a baseline run of the same suite: per metric, per combination, per voice measure. */

const Count = z.number().int().min(0);
const Rate = z.number().min(0).max(1);

export const SuiteRunCompareQuerySchema = z.object({
  /** The run to compare with; default: the suite's previous completed run. */
  baseline_run_id: Uuid.optional(),
});

/** Pass rate of a metric in one run with its 95% Wilson score interval. */
export const PassRateSchema = z.object({
  scored: Count,
  passed: Count,
  pass_rate: Rate.nullable(),
  ci_low: Rate.nullable(),
  ci_high: Rate.nullable(),
});

/**
 * One metric now vs the baseline. `p_value` is the two-sided Fisher exact test on the 2x2 table
 * (passed/flagged x run/baseline); `significant` when it is below `significance_level`;
 * `regression` when significant, the pass rate dropped, and by more than the judge's own noise.
 */
export const MetricComparisonSchema = z.object({
  metric_id: Uuid,
  metric_name: z.string(),
  current: PassRateSchema,
  baseline: PassRateSchema.nullable(),
  delta: z.number().min(-1).max(1).nullable(),
  p_value: z.number().min(0).max(1).nullable(),
  significant: z.boolean(),
  regression: z.boolean(),
  /** The metric version the run's results were scored with, and the baseline's (null: unknown). */
  version: z.number().int().nullable(),
  baseline_version: z.number().int().nullable(),
  /**
   * True when the two runs were scored with different versions of the metric: a change in its pass
   * rate may be the instrument's rather than the agent's (`warnings` says so).
   */
  version_changed: z.boolean(),
  /**
   * The share of calls whose verdict flips when the judge scores them again (the metric version's
   * latest completed consistency check), null when none was run.
   */
  judge_flip_rate: z.number().min(0).max(1).nullable(),
  /**
   * True when the pass rate moved by no more than the judge's flip rate: the judge alone could
   * have moved it that far, so it is read as noise and never as a regression (`warnings` says so).
   */
  within_judge_noise: z.boolean(),
});

/** A call that regressed: flagged now on a metric its combination passed on in every baseline call. */
export const RegressedCallSchema = z.object({
  conversation_id: z.string(),
  call_import_row_id: Uuid,
  metric_ids: z.array(Uuid),
});

export const CombinationComparisonSchema = z.object({
  combination_id: Uuid,
  persona_name: z.string(),
  scenario_name: z.string(),
  regressed_calls: z.array(RegressedCallSchema),
});

export type PassRate = z.infer<typeof PassRateSchema>;
export type MetricComparison = z.infer<typeof MetricComparisonSchema>;
export type RegressedCall = z.infer<typeof RegressedCallSchema>;
export type CombinationComparison = z.infer<typeof CombinationComparisonSchema>;

/** A completed run compared with a baseline run of the same suite. */
export const SuiteRunComparisonSchema = z.object({
  run_id: Uuid,
  /** Null when the suite has no earlier completed run: nothing to compare with. */
  baseline_run_id: Uuid.nullable(),
  significance_level: z.number(),
  /** Current pass rate (see SuiteRun) and the baseline's. */
  pass_rate: Rate.nullable(),
  baseline_pass_rate: Rate.nullable(),
  metrics: z.array(MetricComparisonSchema),
  /** Combinations with at least one regressed call. */
  combinations: z.array(CombinationComparisonSchema),
  /** Voice runs: each voice measure's mean now and in the baseline (empty for text runs). */
  voice: z.array(
    z.object({
      measure: z.string(),
      current: z.number().nullable(),
      baseline: z.number().nullable(),
      delta: z.number().nullable(),
    }),
  ),
  /** True when any metric's drop is a regression (significant, and beyond the judge's noise). */
  regressed: z.boolean(),
  /**
   * What a reader must know before trusting the deltas: metrics scored with different versions or
   * policies, and changes within the judge's own noise.
   */
  warnings: z.array(z.string()),
});
export type SuiteRunComparison = z.infer<typeof SuiteRunComparisonSchema>;
