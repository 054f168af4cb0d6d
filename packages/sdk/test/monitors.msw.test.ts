import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { NotFoundError, UnprocessableEntityError } from '../src/index.js';
import { useMockApi } from './helpers.js';

const { api, client } = useMockApi();

const newAgent = (name = 'Live agent') =>
  client().agents.create({ name, call_type: 'inbound', call_medium: 'phone' });

const metricId = async () => (await client().metrics.create({ name: 'Resolved' })).id;

describe('monitors in the mock store, as the server treats them', () => {
  it('create, get, list, update and delete round trip', async () => {
    const c = client();
    const agent = await newAgent();
    const metric = await metricId();
    const created = await c.monitors
      .create({
        agent_id: agent.id,
        name: 'Front desk',
        metric_ids: [metric],
        sample_rate: 0.25,
        rules: [{ type: 'per_call' }, { type: 'pass_rate', below: 0.8, window_minutes: 60 }],
        slack_webhook_url: 'https://hooks.slack.com/services/T/B/x',
      })
      .withResponse();
    expect(created.response.status).toBe(201);
    const monitor = created.data;
    expect(monitor).toMatchObject({
      agent_id: agent.id,
      name: 'Front desk',
      metric_ids: [metric],
      sample_rate: 0.25,
      is_active: true,
      slack_configured: true,
      calls_seen: 0,
      calls_sampled: 0,
      rules: [
        { type: 'per_call', cooldown_minutes: 60 },
        { type: 'pass_rate', below: 0.8, window_minutes: 60, min_calls: 10, confidence: 0.95 },
      ],
    });
    expect(monitor.evaluation_id).toMatch(/^[0-9a-f-]{36}$/);
    expect(new Set(monitor.rules.map((r) => r.id)).size).toBe(2);
    expect(JSON.stringify(monitor)).not.toContain('hooks.slack.com');

    await expect(c.monitors.get(monitor.id)).resolves.toEqual(monitor);
    const other = await newAgent('Other agent');
    await c.monitors.create({ agent_id: other.id, name: 'Quiet', metric_ids: [metric], is_active: false });
    await expect(c.monitors.list()).resolves.toMatchObject({ total: 2 });
    const forAgent = await c.monitors.list({ agent_id: agent.id });
    expect(forAgent.items.map((m) => m.id)).toEqual([monitor.id]);
    const inactive = await c.monitors.list({ is_active: false });
    expect(inactive.items.map((m) => m.name)).toEqual(['Quiet']);

    const renamed = await c.monitors.update(monitor.id, {
      name: 'Front desk (EU)',
      rules: [{ type: 'failure_count', failures: 3, of_last: 10 }],
      slack_webhook_url: null,
    });
    expect(renamed).toMatchObject({
      id: monitor.id,
      name: 'Front desk (EU)',
      sample_rate: 0.25,
      metric_ids: [metric],
      slack_configured: false,
      evaluation_id: monitor.evaluation_id,
      rules: [{ type: 'failure_count', failures: 3, of_last: 10, cooldown_minutes: 60 }],
    });
    expect(monitor.rules.map((r) => r.id)).not.toContain(renamed.rules[0]?.id);
    const remetered = await c.monitors.update(monitor.id, { metric_ids: [await metricId()] });
    expect(remetered.evaluation_id).not.toBe(monitor.evaluation_id);
    await expect(c.monitors.get(monitor.id)).resolves.toMatchObject({ name: 'Front desk (EU)' });

    const deleted = await c.monitors.delete(monitor.id).withResponse();
    expect(deleted.response.status).toBe(204);
    await expect(c.monitors.get(monitor.id)).rejects.toBeInstanceOf(NotFoundError);
    await expect(c.monitors.delete(monitor.id)).rejects.toBeInstanceOf(NotFoundError);
    await expect(c.monitors.update(monitor.id, { name: 'x' })).rejects.toBeInstanceOf(NotFoundError);
    await expect(c.monitors.list()).resolves.toMatchObject({ total: 1 });
  });

  it('refuses a bad body with 422 field errors, and an unknown agent with 404', async () => {
    const c = client();
    const agent = await newAgent();
    const metric = await metricId();
    const error = await c.monitors
      .create({ agent_id: agent.id, name: 'Too eager', metric_ids: [metric], sample_rate: 2 })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(UnprocessableEntityError);
    expect((error as UnprocessableEntityError).errors.map((e) => e.path)).toContain('body.sample_rate');
    const badRule = await c.monitors
      .create({
        agent_id: agent.id,
        name: 'Backwards',
        metric_ids: [metric],
        rules: [{ type: 'failure_count', failures: 5, of_last: 2 }],
      })
      .catch((e: unknown) => e);
    expect(badRule).toBeInstanceOf(UnprocessableEntityError);
    await expect(
      c.monitors.create({ agent_id: randomUUID(), name: 'Nobody', metric_ids: [metric] }),
    ).rejects.toBeInstanceOf(NotFoundError);
    await expect(c.monitors.list()).resolves.toMatchObject({ total: 0 });
  });

  it("lists a monitor's stored alerts newest first, in pages; none after it is deleted", async () => {
    const c = client();
    const agent = await newAgent();
    const monitor = await c.monitors.create({
      agent_id: agent.id,
      name: 'Alerting',
      metric_ids: [await metricId()],
      rules: [{ type: 'per_call' }],
    });
    await expect(c.monitors.alerts(monitor.id)).resolves.toMatchObject({ items: [], total: 0 });
    const ruleId = monitor.rules[0]!.id;
    const fired = ['2025-02-01T10:00:00.000Z', '2025-02-01T12:00:00.000Z', '2025-02-01T11:00:00.000Z'];
    for (const firedAt of fired) {
      api.db.monitorAlerts.create(
        api.fixtures.monitorAlert({ monitor_id: monitor.id, rule_id: ruleId, fired_at: firedAt }),
      );
    }
    api.db.monitorAlerts.create(api.fixtures.monitorAlert({ monitor_id: randomUUID() }));

    const first = await c.monitors.alerts(monitor.id, { page_size: 2 });
    expect(first.total).toBe(3);
    expect(first.items.map((a) => a.fired_at)).toEqual([fired[1], fired[2]]);
    expect(first.items[0]).toMatchObject({ monitor_id: monitor.id, rule_id: ruleId, rule_type: 'per_call' });
    expect(first.hasNextPage()).toBe(true);
    const all = await c.monitors.alerts(monitor.id, { page_size: 2 }).toArray({ limit: 10 });
    expect(all.map((a) => a.fired_at)).toEqual([fired[1], fired[2], fired[0]]);

    await c.monitors.delete(monitor.id);
    await expect(c.monitors.alerts(monitor.id)).rejects.toBeInstanceOf(NotFoundError);
    expect(api.db.monitorAlerts.all().filter((a) => a.monitor_id === monitor.id)).toEqual([]);
  });

  it('a submitted call is sampled when its agent has an active monitor, unless it asks to skip', async () => {
    const c = client();
    const agent = await newAgent();
    const submit = (id: string, sampling?: 'default' | 'force' | 'skip') =>
      c.productionCalls.submit({ agent_id: agent.id, external_call_id: id, sampling });
    await expect(submit('before')).resolves.toMatchObject({ sampled: false });
    const monitor = await c.monitors.create({
      agent_id: agent.id,
      name: 'Watch',
      metric_ids: [await metricId()],
    });
    await expect(submit('default')).resolves.toMatchObject({ sampled: true, deduplicated: false });
    await expect(submit('forced', 'force')).resolves.toMatchObject({ sampled: true });
    await expect(submit('skipped', 'skip')).resolves.toMatchObject({ sampled: false });
    // a repeat answers the existing call's decision
    await expect(submit('default')).resolves.toMatchObject({ sampled: true, deduplicated: true });
    await expect(submit('skipped', 'force')).resolves.toMatchObject({ sampled: false, deduplicated: true });
    await c.monitors.update(monitor.id, { is_active: false });
    await expect(submit('paused')).resolves.toMatchObject({ sampled: false });
  });

  it('numbers and samples calls as the server does, and lists them newest first', async () => {
    const c = client();
    const agent = await newAgent();
    const monitor = await c.monitors.create({
      agent_id: agent.id,
      name: 'Three in ten',
      metric_ids: [await metricId()],
      sample_rate: 0.3,
    });
    for (let i = 1; i <= 10; i++)
      await c.productionCalls.submit({ agent_id: agent.id, external_call_id: `c${i}` });
    const calls = await c.monitors.calls(monitor.id, { page_size: 100 });
    expect(calls.items.map((call) => call.seq)).toEqual([10, 9, 8, 7, 6, 5, 4, 3, 2, 1]);
    expect(calls.items.filter((call) => call.sampled).map((call) => call.seq)).toEqual([10, 7, 4]);
    expect(calls.items[0]).toMatchObject({ state: 'waiting', outcome: null });
    const judged = await c.monitors.calls(monitor.id, { sampled: true });
    expect(judged.total).toBe(3);
    await expect(c.monitors.get(monitor.id)).resolves.toMatchObject({ calls_seen: 10, calls_sampled: 3 });
    await c.monitors.delete(monitor.id);
    await expect(c.monitors.calls(monitor.id)).rejects.toBeInstanceOf(NotFoundError);
  });
});
