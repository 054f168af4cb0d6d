import type { EvaluationRow, SuiteRun, SuiteRunCall, VoiceMeasures } from '@voice-eval/contract';
import type { MockEnv } from './env.js';
import { MOCK_GREETING } from './simulation-fixtures.js';

/**
 * How a mocked suite run moves through the real statuses, one step per `GET /suite-runs/:id` of an unfinished
 * run: `pending` (created) -> 1st get `running` (the first half of the calls completed, the rest
 * running) -> 2nd get `evaluating` (every call completed; the evaluation exists) -> 3rd get
 * `completed` (calls scored, summaries filled). Outcomes are a hash of the combination, the
 * repetition and the metric, so the same suite scores the same way run after run.
 */

/** Share of (call, metric) results flagged, in percent. */
const FLAGGED_PERCENT = 25;

/** FNV-1a, 32 bits: a stable hash for seeds and outcomes. */
export const hashOf = (text: string): number => {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i += 1) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193) >>> 0;
  return h;
};

/** Whether the mocked judge flags `call` on `metricId`. */
export const isFlagged = (call: SuiteRunCall, metricId: string): boolean =>
  hashOf(`${call.combination_id}:${call.repetition}:${metricId}`) % 100 < FLAGGED_PERCENT;

/** The calls of a run, in the order they were queued. */
export const callsOf = (env: MockEnv, runId: string): SuiteRunCall[] =>
  env.db.suiteRunCalls
    .all()
    .filter((call) => call.run_id === runId)
    .reverse();

/** The scored rows of a run's evaluation, by call-import row. */
export const scoresOf = (env: MockEnv, run: SuiteRun): Map<string, EvaluationRow> =>
  new Map(
    env.db.evaluationRows
      .all()
      .filter((row) => run.evaluation_id !== null && row.evaluation_id === run.evaluation_id)
      .map((row) => [row.call_import_row_id, row]),
  );

const rate = (passed: number, scored: number) => (scored === 0 ? null : passed / scored);

/** Stores `patch` on the run with counts and summaries recomputed from its calls and scores. */
export const saveRun = (env: MockEnv, run: SuiteRun, patch: Partial<SuiteRun> = {}): SuiteRun => {
  const next = { ...run, ...patch };
  const calls = callsOf(env, run.id);
  const scores = scoresOf(env, next);
  const count = (status: SuiteRunCall['status']) => calls.filter((c) => c.status === status).length;
  const flaggedCall = (call: SuiteRunCall) =>
    scores.get(call.call_import_row_id)?.results.some((r) => r.flagged) ?? false;
  const scored = calls.filter((call) => (scores.get(call.call_import_row_id)?.results.length ?? 0) > 0);
  const combination_summary = next.combination_summary.map((summary) => {
    const mine = calls.filter((c) => c.combination_id === summary.combination_id);
    const mineScored = scored.filter((c) => c.combination_id === summary.combination_id);
    const flagged = mineScored.filter(flaggedCall).length;
    return {
      ...summary,
      calls: mine.length,
      calls_completed: mine.filter((c) => c.status === 'completed').length,
      calls_failed: mine.filter((c) => c.status === 'failed').length,
      flagged_calls: flagged,
      pass_rate: rate(mineScored.length - flagged, mineScored.length),
    };
  });
  const value: SuiteRun = {
    ...next,
    calls_total: calls.length,
    calls_pending: count('pending'),
    calls_running: count('running'),
    calls_completed: count('completed'),
    calls_failed: count('failed'),
    calls_cancelled: count('cancelled'),
    combination_summary,
    pass_rate: rate(scored.filter((c) => !flaggedCall(c)).length, scored.length),
    voice_summary:
      next.channel === 'voice'
        ? voiceSummaryOf(
            calls.flatMap((c) => (c.status === 'completed' && c.voice_measures ? [c.voice_measures] : [])),
          )
        : null,
    updated_at: env.seq.timestamp(),
  };
  return env.db.suiteRuns.update(run.id, value) ?? value;
};

const startCall = (env: MockEnv, call: SuiteRunCall, at: string) =>
  env.db.suiteRunCalls.update(call.id, { status: 'running', attempts: 1, started_at: at });

/** Measures of a mocked voice call, fixed by its seed (the server measures them from the audio). */
const voiceMeasuresOf = (call: SuiteRunCall, p50: number): VoiceMeasures => ({
  duration_ms: 30_000 + (call.seed % 20_000),
  agent_latency_p50_ms: p50,
  agent_latency_p95_ms: p50 + 300,
  time_to_first_word_ms: 600 + (call.seed % 400),
  agent_interruptions: call.seed % 3 === 0 ? 1 : 0,
  caller_interruptions: 1,
  yielded_on_barge_in: call.seed % 4 !== 0,
  clear_messages: call.seed % 4 !== 0 ? 1 : 0,
  overlap_ratio: 0.02,
  silence_ratio: 0.3,
  agent_talk_ratio: 0.6,
});

/** The mean of each numeric measure over the calls, as the server's `voice_summary`. */
const voiceSummaryOf = (measures: readonly VoiceMeasures[]): Record<string, number> | null => {
  if (measures.length === 0) return null;
  const summary: Record<string, number> = {};
  for (const key of Object.keys(measures[0]!) as Array<keyof VoiceMeasures>) {
    const values = measures.map((m) => m[key]).filter((v): v is number => typeof v === 'number');
    if (values.length > 0) summary[key] = values.reduce((a, b) => a + b, 0) / values.length;
  }
  const barged = measures.filter((m) => m.yielded_on_barge_in !== null);
  if (barged.length > 0)
    summary.yielded_on_barge_in = barged.filter((m) => m.yielded_on_barge_in).length / barged.length;
  return summary;
};

const completeCall = (env: MockEnv, call: SuiteRunCall, at: string, voice: boolean) => {
  const p50 = 350 + (call.seed % 200);
  env.db.suiteRunCalls.update(call.id, {
    status: 'completed',
    end_reason: call.seed % 5 === 0 ? 'agent_ended' : 'caller_ended',
    turns: 4 + (call.seed % 7),
    agent_latency: { p50_ms: p50, p95_ms: p50 + 300, max_ms: p50 + 450 },
    voice_measures: voice ? voiceMeasuresOf(call, p50) : null,
    attempts: 1,
    started_at: call.started_at ?? at,
    completed_at: at,
  });
  env.db.callImportRows.update(call.call_import_row_id, {
    diarised_transcript: [
      { speaker: 'agent', text: MOCK_GREETING },
      { speaker: 'user', text: 'Hi, I am calling about my booking.' },
    ],
    diarised_transcript_status: 'completed',
    updated_at: at,
  });
};

/** Every call completed: the evaluation of the import's rows starts. */
const startEvaluation = (env: MockEnv, run: SuiteRun, metricIds: string[], at: string) => {
  const total = run.calls_total;
  env.db.callImports.update(run.call_import_id, { latest_evaluation_status: 'running', updated_at: at });
  const evaluation = env.fixtures.evaluation({
    workspace_id: run.workspace_id,
    call_import_id: run.call_import_id,
    metric_ids: metricIds,
    status: 'running',
    total_rows: total,
    running_rows: total,
    started_at: at,
  });
  return env.db.evaluations.create(evaluation).id;
};

/** Scores every completed call on the suite's metrics and completes the evaluation. */
const score = (env: MockEnv, run: SuiteRun, evaluationId: string, metricIds: string[], at: string) => {
  const names = metricIds.map((id, i) => env.db.metrics.get(id)?.name ?? `Metric ${i + 1}`);
  const calls = callsOf(env, run.id).filter((c) => c.status === 'completed');
  for (const call of calls) {
    const results = metricIds.map((metric_id, i) => {
      const flagged = isFlagged(call, metric_id);
      const rationale = flagged ? 'The agent skipped a required step.' : 'The agent handled the request.';
      const metric_version = env.db.metrics.get(metric_id)?.version ?? null;
      return {
        metric_id,
        metric_name: names[i]!,
        value: !flagged,
        flagged,
        rationale,
        evidence: [],
        metric_version,
      };
    });
    const row = env.fixtures.evaluationRow({
      evaluation_id: evaluationId,
      call_import_row_id: call.call_import_row_id,
      conversation_id: call.conversation_id,
      results,
      attempts: 1,
      completed_at: at,
    });
    env.db.evaluationRows.create(row);
  }
  env.db.evaluations.update(evaluationId, {
    status: 'completed',
    running_rows: 0,
    completed_rows: calls.length,
    completed_at: at,
  });
  env.db.callImports.update(run.call_import_id, { latest_evaluation_status: 'completed' });
  return metricIds.map((metric_id, i) => {
    const passed = calls.filter((call) => !isFlagged(call, metric_id)).length;
    const flagged = calls.length - passed;
    return {
      metric_id,
      metric_name: names[i]!,
      scored: calls.length,
      passed,
      flagged,
      pass_rate: rate(passed, calls.length),
    };
  });
};

/** Moves an unfinished run one step along (see the top of this file); a finished run stays. */
export const advanceRun = (env: MockEnv, run: SuiteRun): SuiteRun => {
  const at = env.seq.timestamp();
  const calls = callsOf(env, run.id);
  const metricIds = env.db.evaluatorSuites.get(run.suite_id)?.metric_ids ?? [];
  switch (run.status) {
    case 'pending': {
      // Half of the calls (rounded down) done, so a one-call run is still visibly running.
      const half = Math.floor(calls.length / 2);
      for (const [i, call] of calls.entries()) {
        if (i < half) completeCall(env, call, at, run.channel === 'voice');
        else startCall(env, call, at);
      }
      return saveRun(env, run, { status: 'running', started_at: at });
    }
    case 'running': {
      for (const call of calls)
        if (call.status !== 'completed') completeCall(env, call, at, run.channel === 'voice');
      const evaluation_id = startEvaluation(env, run, metricIds, at);
      return saveRun(env, run, { status: 'evaluating', evaluation_id });
    }
    case 'evaluating': {
      // A run stored by a test may be evaluating without an evaluation: nothing to score then.
      const metric_summary = run.evaluation_id ? score(env, run, run.evaluation_id, metricIds, at) : [];
      return saveRun(env, run, { status: 'completed', metric_summary, finished_at: at });
    }
    default:
      return run;
  }
};

/** Cancels an unfinished run: its pending and running calls and its evaluation end cancelled. */
export const cancelRun = (env: MockEnv, run: SuiteRun): SuiteRun => {
  const at = env.seq.timestamp();
  for (const call of callsOf(env, run.id)) {
    if (call.status !== 'pending' && call.status !== 'running') continue;
    const error = { code: 'cancelled' as const, message: 'The run was cancelled.', at };
    env.db.suiteRunCalls.update(call.id, { status: 'cancelled', error });
  }
  const evaluation = run.evaluation_id ? env.db.evaluations.get(run.evaluation_id) : undefined;
  if (evaluation && (evaluation.status === 'pending' || evaluation.status === 'running')) {
    const cancelled_rows = evaluation.pending_rows + evaluation.running_rows;
    env.db.evaluations.update(evaluation.id, {
      status: 'cancelled',
      pending_rows: 0,
      running_rows: 0,
      cancelled_rows,
    });
  }
  return saveRun(env, run, { status: 'cancelled', finished_at: at });
};
