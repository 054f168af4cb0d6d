/**
 * The deterministic clustering core of metric-cluster reports: pure functions over texts, no
 * database and no model. Reports use it as is when no AI provider is configured, and as the
 * grouping the model names when one is.
 */
export { adjustedRandIndex } from './ari.js';
export {
  type Cluster,
  type ClusterOptions,
  clusterItems,
  type SubCluster,
  type TextItem,
} from './cluster-items.js';
export { GAP_CUES, type GapLabel, gapLabelOf } from './gap-labels.js';
export { tokenize } from './text.js';
