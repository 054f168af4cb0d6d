import { describe, expect, it } from 'vitest';
import { ConflictError, UnprocessableEntityError } from '../src/index.js';
import { useMockApi } from './helpers.js';

const { api, server, client } = useMockApi();

describe('agent connections in the mock store', () => {
  it('answer secrets masked; an update without the key keeps it, null clears it', async () => {
    const c = client();
    const agent = await c.agents.create({
      name: 'Desk',
      call_type: 'inbound',
      call_medium: 'web',
      connection: {
        kind: 'openai_chat',
        base_url: 'https://agent.example.test/v1',
        model: 'desk-1',
        api_key: 'sk-agent-secret',
        system_prompt: 'Be brief.',
        extra_headers: { 'x-tenant': 'acme' },
      },
    });
    expect(agent.connection).toEqual({
      kind: 'openai_chat',
      base_url: 'https://agent.example.test/v1',
      model: 'desk-1',
      has_api_key: true,
      system_prompt: 'Be brief.',
      extra_header_names: ['x-tenant'],
    });
    expect(JSON.stringify(agent)).not.toContain('sk-agent-secret');
    const moved = await c.agents.update(agent.id, {
      connection: { kind: 'openai_chat', base_url: 'https://new.example.test/v1', model: 'desk-2' },
    });
    expect(moved.connection).toMatchObject({ base_url: 'https://new.example.test/v1', has_api_key: true });
    expect(moved.connection).toMatchObject({ system_prompt: 'Be brief.', extra_header_names: ['x-tenant'] });
    const keyless = await c.agents.update(agent.id, {
      connection: { kind: 'openai_chat', base_url: 'https://new.example.test/v1', model: 'm', api_key: null },
    });
    expect(keyless.connection).toMatchObject({ has_api_key: false });
    await expect(c.agents.update(agent.id, { connection: null })).resolves.toMatchObject({
      connection: null,
    });
  });

  it('a first webhook connection needs its secret (422), later writes keep it', async () => {
    const c = client();
    const agent = await c.agents.create({ name: 'Hook', call_type: 'outbound', call_medium: 'sip' });
    const webhook = { kind: 'webhook' as const, url: 'https://agent.example.test/turn' };
    const error = (await c.agents
      .update(agent.id, { connection: webhook })
      .catch((e: unknown) => e)) as UnprocessableEntityError;
    expect(error).toBeInstanceOf(UnprocessableEntityError);
    expect(error.errors.map((e) => e.path)).toEqual(['body.connection.secret']);
    const secret = `whsec_${Buffer.alloc(24, 7).toString('base64')}`;
    await c.agents.update(agent.id, { connection: { ...webhook, secret } });
    const kept = await c.agents.update(agent.id, {
      connection: { ...webhook, url: 'https://b.example.test/' },
    });
    expect(kept.connection).toEqual({ kind: 'webhook', url: 'https://b.example.test/', has_secret: true });
    await expect(c.agents.test(agent.id)).resolves.toMatchObject({ ok: true, kind: 'webhook' });
  });
});

describe('evaluator suites in the mock store', () => {
  it('cross personas with scenarios (by persona, then scenario name); an update keeps remaining pairs', async () => {
    const c = client();
    const agent = await c.agents.create({ name: 'Desk', call_type: 'inbound', call_medium: 'web' });
    const ada = await c.personas.create({ name: 'Ada', tts_provider: 'openai', tts_voice_id: 'alloy' });
    const bob = await c.personas.create({ name: 'Bob', tts_provider: 'openai', tts_voice_id: 'echo' });
    const refund = await c.scenarios.create({ name: 'Refund' });
    const booking = await c.scenarios.create({ name: 'Booking' });
    const suite = await c.evaluatorSuites.create({
      agent_id: agent.id,
      name: 'Desk suite',
      persona_ids: [bob.id, ada.id],
      scenario_ids: [refund.id, booking.id],
    });
    const pairs = (s: typeof suite) => s.combinations.map((x) => `${x.persona_name}/${x.scenario_name}`);
    expect(pairs(suite)).toEqual(['Bob/Booking', 'Bob/Refund', 'Ada/Booking', 'Ada/Refund']);
    expect(suite).toMatchObject({
      agent_name: 'Desk',
      persona_id: bob.id,
      combination_count: 4,
      round_robin_index: 0,
      schedule: null,
      schedule_enabled: false,
      next_run_at: null,
    });
    const updated = await c.evaluatorSuites.update(suite.id, { persona_ids: [ada.id] });
    expect(pairs(updated)).toEqual(['Ada/Booking', 'Ada/Refund']);
    expect(updated.combinations.map((x) => x.id)).toEqual(suite.combinations.slice(2).map((x) => x.id));
  });

  it('turn a schedule on with a next run, and refuse enabling without an expression', async () => {
    const c = client();
    const suite = api.db.evaluatorSuites.create(api.fixtures.evaluatorSuite());
    await expect(c.evaluatorSuites.update(suite.id, { schedule_enabled: true })).rejects.toMatchObject({
      status: 422,
      errors: [{ path: 'body.schedule_enabled' }],
    });
    const on = await c.evaluatorSuites.update(suite.id, { schedule: '0 6 * * 1', schedule_enabled: true });
    expect(on).toMatchObject({ schedule: '0 6 * * 1', schedule_enabled: true });
    // the next Monday 06:00 UTC, as the server computes it
    const next = new Date(on.next_run_at!);
    expect([next.getUTCDay(), next.getUTCHours(), next.getUTCMinutes()]).toEqual([1, 6, 0]);
    await expect(c.evaluatorSuites.update(suite.id, { schedule: '0 6 * *' })).rejects.toMatchObject({
      status: 422,
      errors: [{ path: 'body.schedule' }],
    });
    const renamed = await c.evaluatorSuites.update(suite.id, { name: 'Renamed' });
    expect(renamed.next_run_at).toBe(on.next_run_at);
    const off = await c.evaluatorSuites.update(suite.id, { schedule_enabled: false });
    expect(off).toMatchObject({ schedule: '0 6 * * 1', next_run_at: null });
  });
});

describe('suite-run overrides', () => {
  it('replace the computed comparison, and error shortcuts answer problems', async () => {
    const run = api.fixtures.suiteRun({ status: 'completed' });
    const c = client({ maxRetries: 0 });
    const regressed = api.fixtures.suiteRunComparison({ run_id: run.id, regressed: true });
    server.use(api.mocks.suiteRuns.compare(regressed));
    await expect(c.suiteRuns.compare(run.id)).resolves.toEqual(regressed);
    server.use(api.mocks.suiteRuns.cancel.error(409, { detail: 'already completed' }));
    const error = await c.suiteRuns.cancel(run.id).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ConflictError);
    expect(error).toMatchObject({
      detail: 'already completed',
      requestId: expect.stringMatching(/^req_mock_/),
    });
  });
});
