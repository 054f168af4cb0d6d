import type { EvaluationResult } from '@voice-eval/contract';

/** A parent metric, as the child metrics of a call's verdicts are grouped under it. */
export interface ParentMetric {
  id: string;
  name: string;
}

export interface VerdictGroup {
  /** The parent metric; undefined for a metric with no parent (then `results` is its one verdict). */
  parent: ParentMetric | undefined;
  /** The parent's own verdict, when it was scored itself. */
  own: EvaluationResult | undefined;
  results: EvaluationResult[];
  flagged: boolean;
}

/**
 * The verdicts in the two-level metric hierarchy: each child metric under its parent, a parent
 * flagged when any of its children is; groups with a flagged verdict first.
 */
export const groupsOf = (
  results: EvaluationResult[],
  parentOf: Map<string, ParentMetric>,
): VerdictGroup[] => {
  const groups = new Map<string, VerdictGroup>();
  const parentIds = new Set([...parentOf.values()].map((p) => p.id));
  for (const result of results) {
    const own = parentIds.has(result.metric_id);
    const parent = own ? { id: result.metric_id, name: result.metric_name } : parentOf.get(result.metric_id);
    const key = parent?.id ?? result.metric_id;
    const group = groups.get(key) ?? { parent, own: undefined, results: [], flagged: false };
    if (own) group.own = result;
    else group.results.push(result);
    group.flagged ||= result.flagged;
    groups.set(key, group);
  }
  const byFlag = (a: { flagged: boolean }, b: { flagged: boolean }) => Number(b.flagged) - Number(a.flagged);
  for (const group of groups.values()) group.results.sort(byFlag);
  return [...groups.values()].sort(byFlag);
};
