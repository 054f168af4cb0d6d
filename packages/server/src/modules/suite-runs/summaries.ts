import type {
  EvaluationResult,
  SuiteRunCombinationSummary,
  SuiteRunMetricSummary,
  VoiceMeasures,
} from '@voice-eval/contract';
import type { Knex } from 'knex';
import type { RunRecord } from './repo.js';

/** A call of a run with its scoring: `results` is null unless its evaluation row completed. */
export type ScoredCall = {
  combination_id: string;
  persona_id: string;
  persona_name: string;
  scenario_id: string;
  scenario_name: string;
  conversation_id: string;
  call_import_row_id: string;
  status: string;
  results: EvaluationResult[] | null;
};

/**
 * The calls of a run with the results of the run's evaluation (the evaluations module's rows, read
 * only: a run's summary needs them joined to its calls), in queue order.
 */
export const scoredCalls = async (
  db: Knex,
  run: Pick<RunRecord, 'id' | 'evaluation_id'>,
): Promise<ScoredCall[]> => {
  const result = await db.raw(
    `select c.combination_id, c.persona_id, coalesce(p.name, '') as persona_name, c.scenario_id,
            coalesce(s.name, '') as scenario_name, c.conversation_id, c.call_import_row_id, c.status,
            case when er.status = 'completed' then er.results end as results
       from suite_run_calls c
       left join personas p on p.id = c.persona_id
       left join scenarios s on s.id = c.scenario_id
       left join evaluation_rows er on er.evaluation_id = ?::uuid and er.call_import_row_id = c.call_import_row_id
      where c.run_id = ?
      order by c.position`,
    [run.evaluation_id, run.id],
  );
  return result.rows as ScoredCall[];
};

/** The voice measures of a run's completed calls. */
export const voiceMeasuresOf = async (db: Knex, runId: string): Promise<VoiceMeasures[]> =>
  (await db('suite_run_calls')
    .where({ run_id: runId, status: 'completed' })
    .whereNotNull('voice_measures')
    .pluck('voice_measures')) as VoiceMeasures[];

/** A call passes when it was scored and none of its results is flagged. */
export const callPassed = (call: ScoredCall): boolean | null =>
  call.results === null ? null : !call.results.some((r) => r.flagged);

const rate = (passed: number, scored: number) => (scored === 0 ? null : passed / scored);

/** Per-metric counts over scored calls, in the order metrics first appear. */
export const metricSummaries = (calls: readonly ScoredCall[]): SuiteRunMetricSummary[] => {
  const byMetric = new Map<string, SuiteRunMetricSummary>();
  for (const call of calls) {
    for (const result of call.results ?? []) {
      const entry = byMetric.get(result.metric_id) ?? {
        metric_id: result.metric_id,
        metric_name: result.metric_name,
        scored: 0,
        passed: 0,
        flagged: 0,
        pass_rate: null,
      };
      entry.scored += 1;
      if (result.flagged) entry.flagged += 1;
      else entry.passed += 1;
      byMetric.set(result.metric_id, entry);
    }
  }
  return [...byMetric.values()].map((m) => ({ ...m, pass_rate: rate(m.passed, m.scored) }));
};

/** A run's summaries: pass rate over scored calls, per metric, and per combination (queue order). */
export const summarise = (calls: readonly ScoredCall[]) => {
  const combinations = new Map<string, SuiteRunCombinationSummary & { scored: number }>();
  for (const call of calls) {
    const entry = combinations.get(call.combination_id) ?? {
      combination_id: call.combination_id,
      persona_id: call.persona_id,
      persona_name: call.persona_name,
      scenario_id: call.scenario_id,
      scenario_name: call.scenario_name,
      calls: 0,
      calls_completed: 0,
      calls_failed: 0,
      flagged_calls: 0,
      pass_rate: null,
      scored: 0,
    };
    entry.calls += 1;
    if (call.status === 'completed') entry.calls_completed += 1;
    if (call.status === 'failed') entry.calls_failed += 1;
    const passed = callPassed(call);
    if (passed !== null) entry.scored += 1;
    if (passed === false) entry.flagged_calls += 1;
    combinations.set(call.combination_id, entry);
  }
  const scored = calls.filter((c) => callPassed(c) !== null);
  return {
    passRate: rate(scored.filter((c) => callPassed(c)).length, scored.length),
    metrics: metricSummaries(calls),
    combinations: [...combinations.values()].map(({ scored: n, ...c }) => ({
      ...c,
      pass_rate: rate(n - c.flagged_calls, n),
    })),
  };
};
