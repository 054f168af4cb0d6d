import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../../src/db/knex.js';
import { type AgentDouble, startAgentDouble } from '../../src/testing/agent.js';
import { CLINIC_GREETING } from '../../src/testing/clinic-agent.js';
import { type JudgeDouble, startJudgeDouble } from '../../src/testing/judge.js';
import { type PersonaDouble, startPersonaDouble } from '../../src/testing/persona.js';
import { type ChildServer, callChild, crashWorld, signUpOnChild, startCheckupRun } from './child-server.js';

/**
 * Crash safety of simulated calls with a real server process on Postgres: SIGKILL the server while
 * calls are in progress, start another on the same database, and every call still ends, once, with
 * exactly one whole transcript (a call cut off is called again from the start, not resumed twice).
 */

const CALLS = 12;
let agent: AgentDouble;
let judge: JudgeDouble;
let persona: PersonaDouble;

/** Signs up on `server`, builds a suite whose agent is the clinic double and starts a run of CALLS calls. */
const seed = async (server: ChildServer) => {
  const session = await signUpOnChild(server, 'sim-crash');
  const runId = await startCheckupRun(session, {
    connection: { kind: 'openai_chat', base_url: agent.chatBaseUrl, model: 'clinic-agent' },
    calls: CALLS,
  });
  return { token: session.token, runId };
};

const runningCalls = (db: Db, runId: string) =>
  db('suite_run_calls')
    .where({ run_id: runId, status: 'running' })
    .where('lease_expires_at', '>', new Date());

describe.skipIf(!process.env.TEST_DATABASE_URL)('simulated calls survive SIGKILL (Postgres)', () => {
  beforeAll(async () => {
    // slow enough that a call takes about a second: the kill lands mid-conversation
    agent = await startAgentDouble({ latencyMs: 120 });
    judge = await startJudgeDouble();
    persona = await startPersonaDouble({ forwardTo: judge.url });
  });
  afterAll(async () => {
    await Promise.all([agent.close(), judge.close(), persona.close()]);
  });
  const world = crashWorld('sim-crash');
  const start = () =>
    world.start({
      VOICE_EVAL_LLM_BASE_URL: persona.url,
      VOICE_EVAL_LLM_MODEL: 'caller-and-judge',
      VOICE_EVAL_FETCH_ALLOWLIST: '127.0.0.1',
      VOICE_EVAL_SIMULATION_LEASE_MS: '1500',
      VOICE_EVAL_SIMULATION_CONCURRENCY: '4',
    });

  it('loses no call and writes one transcript per call', async () => {
    const victim = await start();
    const { token, runId } = await seed(victim);
    // calls are mid-conversation: leased, with turns already served by the agent
    await expect
      .poll(async () => (await runningCalls(world.db, runId)).length, { timeout: 30_000, interval: 20 })
      .toBeGreaterThan(0);
    await expect
      .poll(async () => [...agent.conversations.values()].some((c) => c.replies.length >= 2), {
        timeout: 30_000,
        interval: 20,
      })
      .toBe(true);
    const cut = (await runningCalls(world.db, runId)).map((c) => c.id as string);
    expect(cut.length).toBeGreaterThan(0);
    await victim.kill();

    const survivor = await start();
    await expect
      .poll(async () => (await callChild(survivor, 'GET', `/api/v1/suite-runs/${runId}`, { token })).status, {
        timeout: 90_000,
        interval: 200,
      })
      .toBe('completed');
    const run = await callChild(survivor, 'GET', `/api/v1/suite-runs/${runId}`, { token });
    expect(run).toMatchObject({ calls_total: CALLS, calls_completed: CALLS, calls_failed: 0 });

    const calls = await world.db('suite_run_calls').where({ run_id: runId });
    for (const call of calls) {
      expect(call).toMatchObject({ status: 'completed', error: null, lease_owner: null });
      if (cut.includes(call.id)) expect(call.attempts).toBeGreaterThanOrEqual(2);
    }
    const rows = await world.db('call_import_rows').whereIn(
      'id',
      calls.map((c) => c.call_import_row_id),
    );
    expect(rows).toHaveLength(CALLS);
    for (const row of rows) {
      expect(row.diarised_transcript_status).toBe('completed');
      const turns = row.diarised_transcript as Array<{ speaker: string; text: string }>;
      // one whole call: a single greeting, turns alternating from the agent
      expect(turns.filter((t) => t.text === CLINIC_GREETING)).toHaveLength(1);
      expect(turns.map((t) => t.speaker)).toEqual(turns.map((_, i) => (i % 2 === 0 ? 'agent' : 'user')));
    }
  }, 180_000);
});
