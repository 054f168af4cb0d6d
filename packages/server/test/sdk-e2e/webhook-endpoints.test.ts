/** Server, contract and SDK agree on webhooks: endpoints, deliveries, and verifyWebhook on real deliveries. */
import {
  NotFoundError,
  PermissionDeniedError,
  UnprocessableEntityError,
  type VoiceEval,
  verifyWebhook,
  WebhookVerificationError,
} from '@voice-eval/sdk';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startWebhookReceiver, type WebhookReceiver } from '../doubles/webhook-receiver.js';
import { createSdkHarness, type SdkHarness } from './sdk-harness.js';

let h: SdkHarness;
let receiver: WebhookReceiver;
beforeAll(async () => {
  receiver = await startWebhookReceiver();
  h = await createSdkHarness({ fetchAllowlist: ['127.0.0.1'], webhookRetryBaseMs: 20 });
});
afterAll(() => receiver.close());

const finished = async (client: VoiceEval, endpointId: string) => {
  await expect
    .poll(async () => (await client.webhookEndpoints.listDeliveries(endpointId)).items[0]?.status, {
      timeout: 20_000,
      interval: 25,
    })
    .toBe('delivered');
};

describe('webhook endpoints through the SDK', () => {
  it('verifyWebhook accepts what the server sent, and rejects it tampered or under another secret', async () => {
    const client = h.sdk();
    const endpoint = await client.webhookEndpoints.create({
      url: `${receiver.url}/hooks/sdk`,
      events: ['evaluation.completed', 'evaluation.failed'],
      description: 'SDK receiver',
    });
    receiver.setSecret('/hooks/sdk', endpoint.secret);
    const delivery = await client.webhookEndpoints.ping(endpoint.id);
    await finished(client, endpoint.id);
    const [got] = receiver.on('/hooks/sdk');
    const event = await verifyWebhook(got!.body, got!.headers as Record<string, string>, endpoint.secret);
    expect(event).toEqual({
      type: 'ping',
      timestamp: expect.any(String),
      data: { endpoint_id: endpoint.id },
    });
    expect(got!.headers['webhook-id']).toBe(delivery.webhook_id);
    await expect(
      verifyWebhook(
        got!.body.replace('ping', 'pong'),
        got!.headers as Record<string, string>,
        endpoint.secret,
      ),
    ).rejects.toBeInstanceOf(WebhookVerificationError);
    const rotated = await client.webhookEndpoints.rotateSecret(endpoint.id);
    await expect(
      verifyWebhook(got!.body, got!.headers as Record<string, string>, rotated.secret),
    ).rejects.toBeInstanceOf(WebhookVerificationError);
  });

  it('verifyWebhook and the standardwebhooks library agree on signatures', async () => {
    const secret = (
      await h.sdk().webhookEndpoints.create({ url: `${receiver.url}/x`, events: ['suite_run.failed'] })
    ).secret;
    const body = JSON.stringify({
      type: 'ping',
      timestamp: new Date().toISOString(),
      data: { endpoint_id: 'x' },
    });
    const at = new Date();
    const headers = {
      'webhook-id': 'msg_interop',
      'webhook-timestamp': String(Math.floor(at.getTime() / 1000)),
      'webhook-signature': new Webhook(secret).sign('msg_interop', at, body),
    };
    await expect(verifyWebhook(body, headers, secret)).resolves.toMatchObject({ type: 'ping' });
  });

  it('lists deliveries with their attempts; redelivers with the same webhook-id', async () => {
    const client = h.sdk();
    const endpoint = await client.webhookEndpoints
      .create({ url: `${receiver.url}/hooks/log`, events: ['ping' as never] })
      .catch((e) => e);
    expect(endpoint).toBeInstanceOf(UnprocessableEntityError);
    const created = await client.webhookEndpoints.create({
      url: `${receiver.url}/hooks/log`,
      events: ['metric_clusters.completed'],
    });
    receiver.setSecret('/hooks/log', created.secret);
    const first = await client.webhookEndpoints.ping(created.id);
    await finished(client, created.id);
    const again = await client.webhookEndpoints.redeliver(created.id, first.id);
    expect(again.webhook_id).toBe(first.webhook_id);
    const all = await client.webhookEndpoints.listDeliveries(created.id).toArray({ limit: 10 });
    expect(all.map((d) => d.id)).toContain(again.id);
    expect(all.find((d) => d.id === first.id)?.attempts).toEqual([
      expect.objectContaining({ attempt: 1, status_code: 200, response_body: 'ok' }),
    ]);
  });

  it('keeps endpoints to ADMIN and up, and to their organization', async () => {
    const own = await h
      .sdk()
      .webhookEndpoints.create({ url: `${receiver.url}/a`, events: ['evaluation.failed'] });
    const member = await h.sdkAs('MEMBER');
    await expect(member.webhookEndpoints.list()).rejects.toBeInstanceOf(PermissionDeniedError);
    const admin = await h.sdkAs('ADMIN');
    expect((await admin.webhookEndpoints.get(own.id)).id).toBe(own.id);
    const other = h.sdk({}, await h.createTenant());
    await expect(other.webhookEndpoints.get(own.id)).rejects.toBeInstanceOf(NotFoundError);
    await expect(other.webhookEndpoints.ping(own.id)).rejects.toBeInstanceOf(NotFoundError);
    expect((await other.webhookEndpoints.list()).total).toBe(0);
  });
});
