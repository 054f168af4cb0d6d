/**
 * The statistics kernel: intervals and tests for rates (suite-run comparison, monitors) and the
 * agreement statistics of judge reliability (how far an LLM judge agrees with human labels, and
 * people with each other). Pure functions over counts and paired arrays; no database, no clock.
 * Where a statistic is undefined (too few items, nothing varies) it is null, never NaN.
 */
export {
  type BootstrapOptions,
  DEFAULT_RESAMPLES,
  DEFAULT_SEED,
  percentileBootstrap,
  quantileOfSorted,
  type ResampleOptions,
} from './bootstrap.js';
export {
  accuracy,
  type ConfusionMatrix,
  cohensKappa,
  compareLabels,
  confusionMatrix,
  type Kappa,
  kappaFromCounts,
  type Label,
  type PositiveLabelScores,
  type Proportion,
  precisionRecallF1,
  proportion,
} from './categorical.js';
export { assertPaired, type Estimate } from './estimate.js';
export {
  averageRanks,
  type MeanAbsoluteError,
  meanAbsoluteError,
  type RankCorrelation,
  spearman,
  type WithinStep,
  withinOneStep,
} from './ordinal.js';
export {
  comparePaired,
  type McNemar,
  mcnemarExact,
  type PairedComparison,
  pairedDifference,
} from './paired.js';
export { fisherExactTwoSided, wilsonInterval, Z_95 } from './proportions.js';
export { type Random, seededRandom, shuffled } from './random.js';
