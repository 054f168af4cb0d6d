import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../../src/db/knex.js';
import {
  startVoiceAgentDouble,
  type VoiceAgentDouble,
  type VoiceAgentStream,
} from '../../src/testing/voice-agent.js';
import { startVoiceDoubles, type VoiceDoubles } from '../voice-doubles.js';
import { callChild, crashWorld, signUpOnChild, startCheckupRun } from './child-server.js';

/**
 * Voice calls scale out: two server processes on one Postgres each hold up to
 * `SIMULATION_CONCURRENCY` calls, so together they hold more than one could, and the fair
 * dispatcher's organization limit, counted in the database, still caps them both. Every call is
 * held by one instance, once. PGlite cannot be shared between processes, so this runs on Postgres
 * only (CI's Postgres pass).
 */

/** Calls one instance holds at once (`VOICE_EVAL_SIMULATION_CONCURRENCY`). */
const SIMULATION_CONCURRENCY = 3;
/** Calls one organization holds at once across every instance (`VOICE_EVAL_ORG_LIMIT`): below both instances' 6. */
const ORG_LIMIT = 5;
/** More than the limit, so calls queue and are dispatched as others end. */
const CALLS = 8;

let doubles: VoiceDoubles;
let agent: VoiceAgentDouble;

/** Streams open at the agent now (from `start` to `closed`), and the most at once. */
const countOpenStreams = (double: VoiceAgentDouble) => {
  const open = new Set<VoiceAgentStream>();
  let max = 0;
  double.on((event, stream) => {
    if (event === 'start') {
      open.add(stream);
      max = Math.max(max, open.size);
    } else if (event === 'closed') open.delete(stream);
  });
  return { max: () => max };
};

/**
 * Samples the run's leased calls every 20 ms until stopped (a lease token is
 * `<instance id>:<uuid>`, cleared when the call ends): which instances held each call, and the
 * most calls seen leased at once, in all and by one instance.
 */
const watchLeases = (db: Db, runId: string) => {
  const holders = new Map<string, Set<string>>();
  let maxLeased = 0;
  let maxByOneInstance = 0;
  let stopped = false;
  const loop = (async () => {
    while (!stopped) {
      const leased: Array<{ id: string; lease_owner: string }> = await db('suite_run_calls')
        .where({ run_id: runId, status: 'running' })
        .whereNotNull('lease_owner')
        .select('id', 'lease_owner');
      const byInstance = new Map<string, number>();
      for (const { id, lease_owner } of leased) {
        const instance = lease_owner.split(':')[0]!;
        holders.set(id, (holders.get(id) ?? new Set()).add(instance));
        byInstance.set(instance, (byInstance.get(instance) ?? 0) + 1);
      }
      maxLeased = Math.max(maxLeased, leased.length);
      maxByOneInstance = Math.max(maxByOneInstance, ...byInstance.values());
      await sleep(20);
    }
  })();
  return {
    stop: async () => {
      stopped = true;
      await loop;
      return { holders, maxLeased, maxByOneInstance };
    },
  };
};

describe.skipIf(!process.env.TEST_DATABASE_URL)(
  'voice calls on two instances sharing one Postgres, under one organization limit (Postgres only: PGlite cannot be shared between processes)',
  () => {
    beforeAll(async () => {
      doubles = await startVoiceDoubles();
      agent = await startVoiceAgentDouble({
        registry: doubles.registry,
        latencyMs: 500,
        hangUpAfterGoodbye: true,
        speechSpeed: 2,
      });
    });
    afterAll(async () => {
      await Promise.all([agent?.close(), doubles?.close()]);
    });
    // one blob folder for both, as one bucket would be: a call recorded by one may be diarised by the other
    const world = crashWorld('voice-scale-out');
    const start = () =>
      world.start({
        ...doubles.env,
        VOICE_EVAL_FETCH_ALLOWLIST: '127.0.0.1',
        VOICE_EVAL_SIMULATION_CONCURRENCY: String(SIMULATION_CONCURRENCY),
        VOICE_EVAL_ORG_LIMIT: String(ORG_LIMIT),
        VOICE_EVAL_AT_CAPACITY_BACKOFF_SECONDS: '1',
      });

    it('both hold calls, more at once than one could, never over the limit, each call once', async (context) => {
      const [a, b] = [await start(), await start()];
      const streams = countOpenStreams(agent);
      const session = await signUpOnChild(a, 'voice-scale-out');
      const auth = { token: session.token };
      const startedAt = performance.now();
      const runId = await startCheckupRun(session, {
        connection: { kind: 'twilio_media_stream', url: agent.url },
        // short calls: the greeting, then the caller's one turn (its goodbye), spoken fast
        persona: {
          response_delay_ms: 100,
          max_turns: 1,
          allow_interruptions: false,
          tts_config: { speed: 2 },
        },
        calls: CALLS,
      });
      const leases = watchLeases(world.db, runId);
      let seen: Awaited<ReturnType<typeof leases.stop>>;
      try {
        await expect
          .poll(async () => (await callChild(b, 'GET', `/api/v1/suite-runs/${runId}`, auth)).status, {
            timeout: 150_000,
            interval: 250,
          })
          .toBe('completed');
      } finally {
        seen = await leases.stop();
      }
      const wallMs = Math.round(performance.now() - startedAt);

      // each call held by one instance, and both instances held calls
      const calls = await world.db('suite_run_calls').where({ run_id: runId }).orderBy('position');
      expect(calls).toHaveLength(CALLS);
      expect(calls.map((c) => seen.holders.get(c.id)?.size)).toEqual(calls.map(() => 1));
      const callsByInstance = new Map<string, number>();
      for (const holders of seen.holders.values()) {
        for (const instance of holders)
          callsByInstance.set(instance, (callsByInstance.get(instance) ?? 0) + 1);
      }
      expect(callsByInstance.size).toBe(2);

      // more streams at once than one instance may hold, never more than the organization's limit
      expect(streams.max()).toBeGreaterThan(SIMULATION_CONCURRENCY);
      expect(streams.max()).toBeLessThanOrEqual(ORG_LIMIT);
      expect(seen.maxLeased).toBeLessThanOrEqual(ORG_LIMIT);
      expect(seen.maxByOneInstance).toBeLessThanOrEqual(SIMULATION_CONCURRENCY);

      // every call streamed once, completed on its first attempt, measured and recorded
      const callSids = agent.streams.map((s) => s.start?.callSid).sort();
      expect(callSids).toEqual(calls.map((c) => c.conversation_id).sort());
      for (const call of calls) {
        expect(call).toMatchObject({ status: 'completed', error: null, attempts: 1, lease_owner: null });
        expect(call.voice_measures).toMatchObject({ duration_ms: expect.any(Number) });
      }
      const run = await callChild(a, 'GET', `/api/v1/suite-runs/${runId}`, auth);
      expect(run).toMatchObject({ channel: 'voice', calls_total: CALLS, calls_completed: CALLS });
      const rows = await world.db('call_import_rows').whereIn(
        'id',
        calls.map((c) => c.call_import_row_id),
      );
      expect(rows).toHaveLength(CALLS);
      for (const row of rows) {
        expect(row).toMatchObject({
          diarised_transcript_status: 'completed',
          recording_storage_key: expect.stringMatching(/^simulations\//),
        });
        // readable through either instance, whichever recorded it
        for (const server of [a, b]) {
          const peaks = await callChild(
            server,
            'GET',
            `/api/v1/call-imports/${row.call_import_id}/rows/${row.id}/recording/peaks?points=10`,
            auth,
          );
          expect(peaks).toMatchObject({
            sample_rate: 8000,
            channels: [expect.any(Array), expect.any(Array)],
          });
        }
      }
      context.annotate(
        `max streams at once ${streams.max()}, max leased ${seen.maxLeased}, calls per instance ${[
          ...callsByInstance.values(),
        ].join('/')}, run ${wallMs} ms`,
      );
    }, 240_000);
  },
);
