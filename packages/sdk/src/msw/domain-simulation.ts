import type { AgentConnection, AgentConnectionWrite, EvaluatorSuite } from '@voice-eval/contract';
import { CronExpressionParser } from 'cron-parser';
import { isReply, readConnection } from './agent-connection.js';
import { createRow, filterRows, patchRow } from './crud.js';
import { unusableBundle } from './domain-voice-bundles.js';
import { idOf, type MockEnv, notFound, paginate, type RouteImpl } from './env.js';
import type { MockReply, ParsedRequest } from './respond.js';
import { combinationFields } from './suite-combinations.js';
import { compareRuns, findBaseline } from './suite-run-compare.js';
import { advanceRun, cancelRun } from './suite-run-progress.js';
import { startRun } from './suite-run-start.js';

type Body = Record<string, unknown>;
const bodyOf = (req: { body: unknown }) => (req.body ?? {}) as Body;

/** The body with its written connection turned into the answered one, or the 422 to send. */
const withConnection = (
  body: Body,
  previous: AgentConnection | null,
): { body: Body } | { reply: MockReply } => {
  const write = body.connection as AgentConnectionWrite | null | undefined;
  if (write === undefined || write === null) return { body };
  const connection = readConnection(write, previous);
  return isReply(connection) ? { reply: connection } : { body: { ...body, connection } };
};

const invalidSchedule = (message: string): MockReply => {
  const detail = `Invalid schedule: ${message}`;
  return { status: 422, body: { detail, errors: [{ path: 'body.schedule', message }] } };
};

/** The slot a schedule starts next after the mock clock's now, or the 422 the server answers. */
const nextSlot = (env: MockEnv, schedule: string): string | MockReply => {
  const fields = schedule.trim().split(/\s+/).length;
  if (fields !== 5) return invalidSchedule(`expected 5 fields, got ${fields}`);
  try {
    const currentDate = new Date(env.seq.timestamp());
    return CronExpressionParser.parse(schedule, { tz: 'UTC', currentDate }).next().toISOString()!;
  } catch (error) {
    return invalidSchedule((error as Error).message);
  }
};

/**
 * The schedule fields after a write, as the server keeps them: a new suite has none and is
 * disabled; enabling needs an expression (422); `next_run_at` is the expression's next slot (UTC)
 * after the mock clock's now, kept while neither field changes.
 */
const scheduleFields = (
  env: MockEnv,
  body: Body,
  current: Pick<EvaluatorSuite, 'schedule' | 'schedule_enabled' | 'next_run_at'>,
): { fields: Partial<EvaluatorSuite> } | { reply: MockReply } => {
  if (body.schedule === undefined && body.schedule_enabled === undefined) return { fields: {} };
  const schedule = body.schedule === undefined ? current.schedule : (body.schedule as string | null);
  const enabled = (body.schedule_enabled as boolean | undefined) ?? current.schedule_enabled;
  if (enabled && !schedule) {
    const detail = 'schedule_enabled needs a schedule (a 5-field cron expression)';
    const path = body.schedule === null ? 'body.schedule' : 'body.schedule_enabled';
    return { reply: { status: 422, body: { detail, errors: [{ path, message: detail }] } } };
  }
  // An unchanged schedule keeps its slot, so an unrelated update does not skip a due run.
  const unchanged = schedule === current.schedule && enabled === current.schedule_enabled;
  const next = schedule && !unchanged ? nextSlot(env, schedule) : null;
  if (next !== null && typeof next !== 'string') return { reply: next };
  const next_run_at = unchanged ? current.next_run_at : enabled ? next : null;
  return { fields: { schedule, schedule_enabled: enabled, next_run_at } };
};

const createSuite: RouteImpl = (req, env) => {
  const { persona_ids, scenario_ids, ...body } = bodyOf(req) as Body & {
    persona_ids: string[];
    scenario_ids: string[];
  };
  const agent = env.db.agents.get(body.agent_id as string, req.workspaceId);
  const schedule = scheduleFields(env, body, { schedule: null, schedule_enabled: false, next_run_at: null });
  if ('reply' in schedule) return schedule.reply;
  const sameAgent = env.db.evaluatorSuites.all(req.workspaceId).filter((s) => s.agent_id === body.agent_id);
  const fields = {
    ...body,
    ...schedule.fields,
    ...combinationFields(env, {
      workspaceId: req.workspaceId,
      personaIds: persona_ids,
      scenarioIds: scenario_ids,
    }),
    agent_name: agent?.name ?? 'Agent',
    agent_call_type: agent?.call_type ?? 'inbound',
    agent_call_medium: agent?.call_medium ?? 'phone',
    agent_suite_count: sameAgent.length + 1,
  };
  return { status: 201, body: createRow(env, 'evaluatorSuites', { ...req, body: fields }) };
};

const updateSuite: RouteImpl = (req, env) => {
  const suite = env.db.evaluatorSuites.get(idOf(req), req.workspaceId);
  if (!suite) return notFound('Evaluator suite');
  const { persona_ids, scenario_ids, ...body } = bodyOf(req) as Body & {
    persona_ids?: string[];
    scenario_ids?: string[];
  };
  const schedule = scheduleFields(env, body, suite);
  if ('reply' in schedule) return schedule.reply;
  // Changing personas or scenarios rebuilds the combinations; pairs that remain keep their ids.
  const rebuilt =
    persona_ids || scenario_ids
      ? combinationFields(env, {
          workspaceId: req.workspaceId,
          personaIds: persona_ids ?? suite.persona_ids,
          scenarioIds: scenario_ids ?? [...new Set(suite.combinations.map((c) => c.scenario_id))],
          previous: suite.combinations,
        })
      : {};
  const count = rebuilt.combination_count ?? suite.combination_count;
  const round_robin_index = suite.round_robin_index < count ? suite.round_robin_index : 0;
  return patchRow(env, 'evaluatorSuites', req, {
    ...body,
    ...schedule.fields,
    ...rebuilt,
    round_robin_index,
  });
};

const runOf = (env: MockEnv, req: ParsedRequest) => env.db.suiteRuns.get(idOf(req), req.workspaceId);

/** Agents' connections and their test, suites' combinations and schedule, and suite runs. */
export const simulationImpls: Record<string, RouteImpl> = {
  'agents.create': (req, env) => {
    const unusable = unusableBundle(env, req, bodyOf(req).voice_bundle_id);
    if (unusable) return unusable;
    const written = withConnection(bodyOf(req), null);
    if ('reply' in written) return written.reply;
    return { status: 201, body: createRow(env, 'agents', { ...req, body: written.body }) };
  },
  'agents.update': (req, env) => {
    const agent = env.db.agents.get(idOf(req), req.workspaceId);
    if (!agent) return notFound('Agent');
    const unusable = unusableBundle(env, req, bodyOf(req).voice_bundle_id);
    if (unusable) return unusable;
    const written = withConnection(bodyOf(req), agent.connection);
    return 'reply' in written ? written.reply : patchRow(env, 'agents', req, written.body);
  },
  'agents.test': (req, env) => {
    const agent = env.db.agents.get(idOf(req), req.workspaceId);
    if (!agent) return notFound('Agent');
    if (!agent.connection) {
      const detail = 'The agent has no connection to test; set `connection` first.';
      return { status: 422, body: { code: 'rule_violation', detail } };
    }
    const tested_at = env.seq.timestamp();
    return { status: 200, body: env.fixtures.agentTestResult({ kind: agent.connection.kind, tested_at }) };
  },
  'evaluatorSuites.create': createSuite,
  'evaluatorSuites.update': updateSuite,
  'suiteRuns.create': (req, env) => {
    const suite = env.db.evaluatorSuites.get(idOf(req), req.workspaceId);
    return suite ? startRun(env, req, suite) : notFound('Evaluator suite');
  },
  'suiteRuns.list': (req, env) =>
    paginate(filterRows(env.db.suiteRuns.all(req.workspaceId), req.query), req.query),
  'suiteRuns.get': (req, env) => {
    const run = runOf(env, req);
    return run ? { status: 200, body: advanceRun(env, run) } : notFound('Suite run');
  },
  'suiteRuns.listCalls': (req, env) => {
    const run = runOf(env, req);
    if (!run) return notFound('Suite run');
    const calls = env.db.suiteRunCalls.all().filter((call) => call.run_id === run.id);
    return paginate(filterRows(calls, req.query), req.query);
  },
  'suiteRuns.getCall': (req, env) => {
    const run = runOf(env, req);
    if (!run) return notFound('Suite run');
    const call = env.db.suiteRunCalls.get(req.params.call_id ?? '');
    return call?.run_id === run.id ? { status: 200, body: call } : notFound('Suite run call');
  },
  'suiteRuns.cancel': (req, env) => {
    const run = runOf(env, req);
    if (!run) return notFound('Suite run');
    if (run.status === 'cancelled') return { status: 200, body: run };
    if (run.status === 'completed' || run.status === 'failed') {
      return {
        status: 409,
        body: { detail: `The run is ${run.status}; only an unfinished run can be cancelled.` },
      };
    }
    return { status: 200, body: cancelRun(env, run) };
  },
  'suiteRuns.compare': (req, env) => {
    const run = runOf(env, req);
    if (!run) return notFound('Suite run');
    if (run.status !== 'completed') {
      return {
        status: 409,
        body: { detail: `The run is ${run.status}; only a completed run can be compared.` },
      };
    }
    const found = findBaseline(env, run, req.query.baseline_run_id as string | undefined, req.workspaceId);
    return 'reply' in found ? found.reply : { status: 200, body: compareRuns(env, run, found.baseline) };
  },
};
