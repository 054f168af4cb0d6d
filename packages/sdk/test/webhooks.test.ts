import { createHmac, randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { UnprocessableEntityError, verifyWebhook, WebhookVerificationError } from '../src/index.js';
import { useMockApi } from './helpers.js';

const SECRET = `whsec_${randomBytes(32).toString('base64')}`;
const NOW = new Date('2026-11-25T12:00:00Z');
const now = () => NOW;

/** Signs as the Standard Webhooks specification says, independently of the SDK's code. */
const signed = (body: string, secret = SECRET, at = NOW, id = 'msg_2b7a') => {
  const timestamp = String(Math.floor(at.getTime() / 1000));
  const key = Buffer.from(secret.replace(/^whsec_/, ''), 'base64');
  const signature = createHmac('sha256', key).update(`${id}.${timestamp}.${body}`).digest('base64');
  return { 'webhook-id': id, 'webhook-timestamp': timestamp, 'webhook-signature': `v1,${signature}` };
};

const BODY = JSON.stringify({
  type: 'evaluation.completed',
  timestamp: '2026-11-25T11:59:59.000Z',
  data: { evaluation_id: '5f3c0f3e-6c1a-4c43-9b8a-0d4c1f1b2a3c', total_rows: 3 },
});

describe('verifyWebhook', () => {
  it('returns the typed event of a correctly signed body (plain, Node and Fetch headers, bytes)', async () => {
    const headers = signed(BODY);
    const event = await verifyWebhook(BODY, headers, SECRET, { now });
    expect(event.type).toBe('evaluation.completed');
    if (event.type === 'evaluation.completed') expect(event.data.total_rows).toBe(3);
    await expect(verifyWebhook(BODY, new Headers(headers), SECRET, { now })).resolves.toEqual(event);
    const nodeStyle = { ...headers, 'webhook-id': [headers['webhook-id']] };
    await expect(verifyWebhook(new TextEncoder().encode(BODY), nodeStyle, SECRET, { now })).resolves.toEqual(
      event,
    );
  });

  it("types a monitor's alert (monitor.alert.fired) by its event type", async () => {
    const body = JSON.stringify({
      type: 'monitor.alert.fired',
      timestamp: '2026-11-25T11:59:59.000Z',
      data: {
        alert_id: '0b0a3a55-44a5-4d36-9a8b-2f1c7c1d2e3f',
        monitor_id: '5f3c0f3e-6c1a-4c43-9b8a-0d4c1f1b2a3c',
        rule_type: 'pass_rate',
        summary: 'Pass rate 50% over the last 60 min (10 of 20).',
        observed: { pass_rate: 0.5, calls: 20 },
      },
    });
    const event = await verifyWebhook(body, signed(body), SECRET, { now });
    if (event.type !== 'monitor.alert.fired') throw new Error(`unexpected ${event.type}`);
    expect(event.data.rule_type).toBe('pass_rate');
    expect(event.data.observed).toEqual({ pass_rate: 0.5, calls: 20 });
  });

  it('accepts any of several signatures (a rotated secret next to the old one)', async () => {
    const other = signed(BODY, `whsec_${randomBytes(32).toString('base64')}`);
    const headers = {
      ...other,
      'webhook-signature': `${other['webhook-signature']} ${signed(BODY)['webhook-signature']}`,
    };
    await expect(verifyWebhook(BODY, headers, SECRET, { now })).resolves.toMatchObject({
      type: 'evaluation.completed',
    });
  });

  it.each([
    ['a changed body', BODY.replace('3', '4'), signed(BODY)],
    ['another secret', BODY, signed(BODY, `whsec_${randomBytes(32).toString('base64')}`)],
    ['another id', BODY, { ...signed(BODY), 'webhook-id': 'msg_other' }],
    ['a stale timestamp', BODY, signed(BODY, SECRET, new Date(NOW.getTime() - 301_000))],
    ['a future timestamp', BODY, signed(BODY, SECRET, new Date(NOW.getTime() + 301_000))],
    ['no signature header', BODY, { ...signed(BODY), 'webhook-signature': undefined }],
    [
      'an unversioned signature',
      BODY,
      { ...signed(BODY), 'webhook-signature': signed(BODY)['webhook-signature'].slice(3) },
    ],
  ])('rejects %s', async (_label, body, headers) => {
    await expect(verifyWebhook(body, headers, SECRET, { now })).rejects.toBeInstanceOf(
      WebhookVerificationError,
    );
  });
});

const { client } = useMockApi();

describe('client.webhookEndpoints on the MSW handlers', () => {
  it('shows the secret on create and rotate only, pings, lists deliveries and redelivers with one webhook-id', async () => {
    const created = await client().webhookEndpoints.create({
      url: 'https://hooks.example.test/in',
      events: ['evaluation.completed'],
    });
    expect(created.secret).toMatch(/^whsec_/);
    const got = await client().webhookEndpoints.get(created.id);
    expect(got).not.toHaveProperty('secret');
    expect(got.secret_hint).toBe(created.secret.slice(-4));
    const rotated = await client().webhookEndpoints.rotateSecret(created.id);
    expect(rotated.secret).not.toBe(created.secret);

    const ping = await client().webhookEndpoints.ping(created.id);
    expect(ping).toMatchObject({ event_type: 'ping', status: 'delivered' });
    const again = await client().webhookEndpoints.redeliver(created.id, ping.id);
    expect(again.webhook_id).toBe(ping.webhook_id);
    const deliveries = await client().webhookEndpoints.listDeliveries(created.id).toArray({ limit: 10 });
    expect(deliveries.map((d) => d.id).sort()).toEqual([ping.id, again.id].sort());

    await client().webhookEndpoints.update(created.id, { enabled: false });
    await expect(client().webhookEndpoints.ping(created.id)).rejects.toBeInstanceOf(UnprocessableEntityError);
    expect((await client().webhookEndpoints.list()).items).toHaveLength(1);
    await client().webhookEndpoints.delete(created.id);
    await expect(client().webhookEndpoints.get(created.id)).rejects.toMatchObject({ status: 404 });
  });

  it('validates like the server: an unknown event type is 422', async () => {
    await expect(
      client().webhookEndpoints.create({
        url: 'https://hooks.example.test/in',
        events: ['nope' as 'ping' as never],
      }),
    ).rejects.toBeInstanceOf(UnprocessableEntityError);
  });
});
