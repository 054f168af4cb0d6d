import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../../src/db/knex.js';
import { type JudgeDouble, peakConcurrency, startJudgeDouble } from '../../src/testing/judge.js';
import {
  type ChildServer,
  callChild,
  crashWorld,
  evaluateTranscripts,
  signUpOnChild,
} from './child-server.js';

/**
 * Crash safety of evaluation dispatch with real server processes on one Postgres: SIGKILL one of
 * two servers while both score rows; the survivor re-dispatches the killed server's rows once
 * their leases expire, every row ends completed exactly once, and no row is scored twice at once.
 */

const ROWS = 40;
let judge: JudgeDouble;

/** Signs up on `server`, imports ROWS calls with transcripts and starts their evaluation. */
const seed = async (server: ChildServer) => {
  const session = await signUpOnChild(server, 'eval-crash');
  const calls = Array.from({ length: ROWS }, (_, i) => ({
    id: `crash-${i + 1}`,
    transcript: `Agent: hello. Caller: hi. row=crash-${i + 1}`,
  }));
  const { evaluationId } = await evaluateTranscripts(session, calls);
  return { token: session.token, evaluationId };
};

/** Instance ids holding live leases on evaluation rows now. */
const leaseHolders = async (db: Db) => {
  const owners: string[] = await db('evaluation_rows')
    .where('status', 'running')
    .where('lease_expires_at', '>', new Date())
    .pluck('lease_owner');
  return new Set(owners.map((owner) => owner.split(':')[0]!));
};

describe.skipIf(!process.env.TEST_DATABASE_URL)(
  'evaluation dispatch survives SIGKILL of an instance (Postgres)',
  () => {
    beforeAll(async () => {
      judge = await startJudgeDouble({ latencyMs: 300 });
    });
    afterAll(async () => {
      await judge.close();
    });
    const world = crashWorld('eval-crash');
    const start = () =>
      world.start({
        VOICE_EVAL_LLM_BASE_URL: judge.url,
        VOICE_EVAL_LLM_MODEL: 'judge-model',
        VOICE_EVAL_EVALUATION_LEASE_MS: '1500',
        VOICE_EVAL_WORKER_CONCURRENCY: '4',
        VOICE_EVAL_GLOBAL_LIMIT: '6',
        VOICE_EVAL_AT_CAPACITY_BACKOFF_SECONDS: '1',
      });

    it('loses no row: the survivor finishes the killed instance’s rows, each scored once at a time', async () => {
      const [victim, survivor] = [await start(), await start()];
      const { token, evaluationId } = await seed(victim);
      // both instances hold rows before the kill
      await expect
        .poll(async () => (await leaseHolders(world.db)).size, { timeout: 30_000, interval: 20 })
        .toBe(2);
      const holdersAtKill = await leaseHolders(world.db);
      await victim.kill();
      const killedAt = new Date();

      await expect
        .poll(
          async () =>
            (await callChild(survivor, 'GET', `/api/v1/evaluations/${evaluationId}`, { token })).status,
          {
            timeout: 90_000,
            interval: 200,
          },
        )
        .toBe('completed');
      const done = await callChild(survivor, 'GET', `/api/v1/evaluations/${evaluationId}`, { token });
      expect(done).toMatchObject({
        total_rows: ROWS,
        completed_rows: ROWS,
        failed_rows: 0,
        cancelled_rows: 0,
      });

      const dispatches = await world.db('evaluation_dispatches').where('evaluation_id', evaluationId);
      const instances = new Set(dispatches.map((d) => d.instance_id as string));
      expect(instances).toEqual(holdersAtKill);
      // the killed instance is the one that dispatched nothing after the kill
      const late = new Set(
        dispatches.filter((d) => d.dispatched_at > killedAt).map((d) => d.instance_id as string),
      );
      expect(late.size).toBe(1);
      const killed = [...instances].find((id) => !late.has(id))!;
      const rows = await world.db('evaluation_rows').where('evaluation_id', evaluationId);
      const attemptsOf = new Map(rows.map((r) => [r.id as string, r.attempts as number]));
      const cutOff = dispatches.filter(
        (d) => d.instance_id === killed && d.attempt === attemptsOf.get(d.evaluation_row_id)! - 1,
      );
      expect(cutOff.length).toBeGreaterThan(0);
      for (const row of rows) {
        expect(row).toMatchObject({ status: 'completed', error: null, lease_owner: null });
        expect(row.results).toHaveLength(1);
        const own = dispatches.filter((d) => d.evaluation_row_id === row.id).map((d) => d.attempt);
        expect(own.sort()).toEqual(Array.from({ length: row.attempts }, (_, i) => i + 1));
      }
      const tags = judge.calls.map((c) => c.tag);
      expect(new Set(tags)).toEqual(new Set(Array.from({ length: ROWS }, (_, i) => `crash-${i + 1}`)));
      for (const n of peakConcurrency(judge.calls, (c) => c.tag ?? undefined).values()) expect(n).toBe(1);
    }, 180_000);
  },
);
