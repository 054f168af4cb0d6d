import { EvaluatorSuiteSchema } from '@voice-eval/contract';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { expectProblem } from '../../../test/access-rules.js';
import { createSuite, makeWorld, nextSeq } from '../../../test/factories/evaluator-suites.js';
import { createHarness, type Harness } from '../../../test/harness.js';

// no workers: the scheduler must not move next_run_at while these tests read it
let h: Harness;
beforeAll(async () => {
  h = await createHarness({ workerConcurrency: 0 });
});

const MINUTE = 60_000;
// the top of an hour a day ago: behind real time, so the access tokens stay valid
const BASE = Math.floor(Date.now() / (60 * MINUTE)) * 60 * MINUTE - 24 * 60 * MINUTE;
const at = (ms: number) => new Date(BASE + ms).toISOString();
const setClock = (ms: number) => {
  h.server.deps.now = () => new Date(BASE + ms);
};
const realNow = () => new Date();
afterEach(() => {
  h.server.deps.now = realNow;
});

const patch = async (id: string, body: Record<string, unknown>) =>
  h.request('PATCH', `/api/v1/evaluator-suites/${id}`, { headers: await h.as('MEMBER'), body });

describe('suite schedules', () => {
  it('stores an enabled schedule and answers the next slot after now, in UTC', async () => {
    setClock(7 * MINUTE + 30_000);
    const { suite } = await createSuite(h, h, { schedule: '*/15 * * * *', schedule_enabled: true });
    expect(suite).toMatchObject({
      schedule: '*/15 * * * *',
      schedule_enabled: true,
      next_run_at: at(15 * MINUTE),
    });
    const got = await h.request('GET', `/api/v1/evaluator-suites/${suite.id}`, {
      headers: await h.as('READER'),
    });
    expect(EvaluatorSuiteSchema.strict().parse(got.body)).toMatchObject({ next_run_at: at(15 * MINUTE) });
    const list = await h.request('GET', '/api/v1/evaluator-suites?page_size=100', {
      headers: await h.as('READER'),
    });
    expect(list.body.items.find((s: { id: string }) => s.id === suite.id)).toMatchObject({
      schedule: '*/15 * * * *',
      next_run_at: at(15 * MINUTE),
    });
  });

  it('keeps a disabled schedule without a next run, and a suite without one answers nulls', async () => {
    const { suite } = await createSuite(h, h, { schedule: '0 9 * * 1-5' });
    expect(suite).toMatchObject({ schedule: '0 9 * * 1-5', schedule_enabled: false, next_run_at: null });
    const { suite: plain } = await createSuite(h, h);
    expect(plain).toMatchObject({ schedule: null, schedule_enabled: false, next_run_at: null });
  });

  it.each([
    ['61 * * * *', 'got value 61 expected range 0-59'],
    ['0 0 31 2 *', 'Invalid explicit day of month definition'],
    ['*/5 * * *', 'expected 5 fields'],
    ['0 */6 * * * *', 'expected 5 fields'],
    ['H/15 * * * *', 'H (hashed values) is not supported'],
  ])('refuses %j with the reason on body.schedule', async (schedule, reason) => {
    const t = await h.createTenant();
    const world = await makeWorld(h, t);
    const reply = await h.request('POST', '/api/v1/evaluator-suites', {
      headers: await t.as('MEMBER'),
      body: {
        name: `Bad schedule ${nextSeq()}`,
        agent_id: world.agent.id,
        persona_ids: [world.personas[0].id],
        scenario_ids: [world.scenarios[0].id],
        schedule,
        schedule_enabled: true,
      },
    });
    expectProblem(reply, 422, 'validation_failed');
    expect(reply.body.errors).toEqual([{ path: 'body.schedule', message: expect.stringContaining(reason) }]);
    expect(await h.db('evaluator_suites').where({ organization_id: t.organizationId })).toEqual([]);
  });

  it('refuses schedule_enabled without a schedule, on create and by clearing it', async () => {
    const t = await h.createTenant();
    const world = await makeWorld(h, t);
    const reply = await h.request('POST', '/api/v1/evaluator-suites', {
      headers: await t.as('MEMBER'),
      body: {
        name: `No schedule ${nextSeq()}`,
        agent_id: world.agent.id,
        persona_ids: [world.personas[0].id],
        scenario_ids: [world.scenarios[0].id],
        schedule_enabled: true,
      },
    });
    expectProblem(reply, 422, 'validation_failed');
    expect(reply.body.errors[0].path).toBe('body.schedule_enabled');
    const { suite } = await createSuite(h, h, { schedule: '0 * * * *', schedule_enabled: true });
    const cleared = await patch(suite.id, { schedule: null });
    expectProblem(cleared, 422, 'validation_failed');
    expect(cleared.body.errors[0].path).toBe('body.schedule');
    const still = await h.request('GET', `/api/v1/evaluator-suites/${suite.id}`, {
      headers: await h.as('READER'),
    });
    expect(still.body).toMatchObject({ schedule: '0 * * * *', schedule_enabled: true });
  });

  it('recomputes next_run_at when the schedule changes or is switched, not on other edits', async () => {
    setClock(MINUTE);
    const { suite } = await createSuite(h, h, { schedule: '*/15 * * * *', schedule_enabled: true });
    expect(suite.next_run_at).toBe(at(15 * MINUTE));

    // the slot is due but not yet started: renaming the suite must not skip it
    setClock(20 * MINUTE);
    const renamed = await patch(suite.id, { name: `Renamed ${nextSeq()}`, schedule: '*/15 * * * *' });
    expect(renamed.status, JSON.stringify(renamed.body)).toBe(200);
    expect(renamed.body.next_run_at).toBe(at(15 * MINUTE));

    const hourly = await patch(suite.id, { schedule: '5 * * * *' });
    expect(hourly.body).toMatchObject({ schedule: '5 * * * *', next_run_at: at(65 * MINUTE) });

    const off = await patch(suite.id, { schedule_enabled: false });
    expect(off.body).toMatchObject({ schedule: '5 * * * *', schedule_enabled: false, next_run_at: null });

    // switched back on later: the next slot from then, the slots it missed while off are not run
    setClock(3 * 60 * MINUTE);
    const on = await patch(suite.id, { schedule_enabled: true });
    expect(on.body).toMatchObject({ schedule_enabled: true, next_run_at: at(3 * 60 * MINUTE + 5 * MINUTE) });

    const none = await patch(suite.id, { schedule: null, schedule_enabled: false });
    expect(none.body).toMatchObject({ schedule: null, schedule_enabled: false, next_run_at: null });
  });
});
