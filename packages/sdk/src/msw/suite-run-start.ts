import type { EvaluatorSuite, SuiteRun } from '@voice-eval/contract';
import { type MockEnv, publicBaseOf, workspaceField } from './env.js';
import type { MockReply, ParsedRequest } from './respond.js';
import { hashOf, saveRun } from './suite-run-progress.js';

type Combination = EvaluatorSuite['combinations'][number];

/** The create body after validation (every field optional). */
interface RunBody {
  runs_per_combination?: number;
  combination_ids?: string[];
  calls?: number;
  baseline_run_id?: string;
}

const ruleViolation = (detail: string, path?: string): MockReply => ({
  status: 422,
  body: { code: 'rule_violation', detail, ...(path ? { errors: [{ path, message: detail }] } : {}) },
});

/**
 * The combinations a run calls: `combination_ids` (each must be the suite's), the next `calls`
 * ones round-robin from `round_robin_index` (wrapping around), or all of them.
 */
const chooseCombinations = (suite: EvaluatorSuite, body: RunBody): Combination[] | MockReply => {
  const all = suite.combinations;
  if (body.combination_ids) {
    const byId = new Map(all.map((c) => [c.id, c]));
    const unknown = body.combination_ids.filter((id) => !byId.has(id));
    if (unknown.length > 0) {
      return ruleViolation(`Not combinations of this suite: ${unknown.join(', ')}`, 'body.combination_ids');
    }
    return body.combination_ids.map((id) => byId.get(id)!);
  }
  if (body.calls !== undefined) {
    return Array.from({ length: body.calls }, (_, i) => all[(suite.round_robin_index + i) % all.length]!);
  }
  return all;
};

/** Checks that make the server refuse a run: nothing to call, no way to reach the agent, a foreign baseline. */
const refusal = (env: MockEnv, req: ParsedRequest, suite: EvaluatorSuite, body: RunBody) => {
  if (suite.combinations.length === 0) return ruleViolation('The suite has no combinations to run.');
  const agent = env.db.agents.get(suite.agent_id, req.workspaceId);
  if (!agent?.connection) {
    return ruleViolation(`Agent ${suite.agent_id} has no connection: set one before running the suite.`);
  }
  if (body.baseline_run_id !== undefined) {
    const baseline = env.db.suiteRuns.get(body.baseline_run_id, req.workspaceId);
    if (baseline?.suite_id !== suite.id) {
      return ruleViolation('The baseline must be a run of the same suite.', 'body.baseline_run_id');
    }
  }
  return undefined;
};

/**
 * Starts a run of `suite` (202, `pending`): one call per chosen combination and repetition, a
 * `simulation` call import with a row per call, and the suite's round-robin cursor advanced
 * when `calls` was given.
 */
export const startRun = (env: MockEnv, req: ParsedRequest, suite: EvaluatorSuite): MockReply => {
  const body = (req.body ?? {}) as RunBody;
  const refused = refusal(env, req, suite, body);
  if (refused) return refused;
  const chosen = chooseCombinations(suite, body);
  if (!Array.isArray(chosen)) return chosen;
  if (body.calls !== undefined) {
    const round_robin_index = (suite.round_robin_index + body.calls) % suite.combinations.length;
    env.db.evaluatorSuites.update(suite.id, { round_robin_index });
  }
  const runsPer = body.runs_per_combination ?? suite.default_runs_per_combination;
  const scope = { workspaceId: req.workspaceId };
  const callImport = env.db.callImports.create(
    env.fixtures.callImport({
      ...workspaceField(req),
      provider: 'simulation',
      original_filename: null,
      source_format: 'simulation',
      dataset: suite.name,
      // Complete at once, as on the server: its rows are the calls, waiting for transcripts.
      status: 'completed',
      total_rows: chosen.length * runsPer,
    }),
    scope,
  );
  const agent = env.db.agents.get(suite.agent_id, req.workspaceId);
  const made = env.fixtures.suiteRun({
    ...workspaceField(req),
    channel: agent?.connection?.kind === 'twilio_media_stream' ? 'voice' : 'text',
    suite_id: suite.id,
    suite_name: suite.name,
    agent_id: suite.agent_id,
    runs_per_combination: runsPer,
    combination_ids: chosen.map((c) => c.id),
    baseline_run_id: body.baseline_run_id ?? null,
    call_import_id: callImport.id,
    // Names are copied now: the suite may change or go before the run is read again.
    combination_summary: [...new Map(chosen.map((c) => [c.id, c])).values()].map((c) => ({
      combination_id: c.id,
      persona_id: c.persona_id,
      persona_name: c.persona_name,
      scenario_id: c.scenario_id,
      scenario_name: c.scenario_name,
      calls: 0,
      calls_completed: 0,
      calls_failed: 0,
      flagged_calls: 0,
      pass_rate: null,
    })),
  });
  // as a server whose public URL is the one the SDK calls, and that serves the console
  const run: SuiteRun = { ...made, console_url: `${publicBaseOf(req)}/console/runs/${made.id}` };
  env.db.suiteRuns.create(run, scope);
  const repetitions = new Map<string, number>();
  let sourceRow = 0;
  for (const combination of chosen) {
    for (let r = 0; r < runsPer; r += 1) {
      // A combination chosen twice (round-robin wrapping) keeps counting its repetitions.
      const repetition = (repetitions.get(combination.id) ?? 0) + 1;
      repetitions.set(combination.id, repetition);
      const conversation_id = `simulated-${env.seq.next()}`;
      sourceRow += 1;
      const row = env.db.callImportRows.create(
        env.fixtures.callImportRow({
          call_import_id: callImport.id,
          conversation_id,
          source_row: sourceRow,
        }),
      );
      const call = env.fixtures.suiteRunCall({
        run_id: run.id,
        combination_id: combination.id,
        persona_id: combination.persona_id,
        scenario_id: combination.scenario_id,
        repetition,
        conversation_id,
        call_import_row_id: row.id,
        seed: hashOf(conversation_id),
      });
      env.db.suiteRunCalls.create(call, scope);
    }
  }
  return { status: 202, body: saveRun(env, run) };
};
