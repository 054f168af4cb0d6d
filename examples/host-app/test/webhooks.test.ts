import { randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { VoiceEval, type WebhookEvent } from '@voice-eval/sdk';
import { createVoiceEvalServer, type VoiceEvalServer } from '@voice-eval/server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHostApp } from '../src/app.js';

/** The host receives voice-eval's webhooks from the voice-eval it embeds, verified with the SDK. */
let voiceEval: VoiceEvalServer;
let server: Server;
let dataDir: string;
let url: string;
let secret: string | undefined;
const events: Array<{ event: WebhookEvent; id: string }> = [];

beforeAll(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'voice-eval-host-webhooks-'));
  // the receiver is on loopback here: allow it (a public URL needs no allow-list)
  voiceEval = createVoiceEvalServer({ dataDir, logLevel: 'silent', fetchAllowlist: ['127.0.0.1'] });
  await voiceEval.start();
  const webhooks = {
    secret: () => secret,
    onEvent: (event: WebhookEvent, id: string) => void events.push({ event, id }),
  };
  server = createHostApp({ voiceEval, internalToken: 'token', webhooks }).listen(0, '127.0.0.1');
  await new Promise<void>((resolve) => server.once('listening', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}, 120_000);
afterAll(async () => {
  if (server) await new Promise<void>((resolve) => server.close(() => resolve()));
  await voiceEval?.close();
  if (dataDir) await rm(dataDir, { recursive: true, force: true });
});

describe('the webhook receiver', { timeout: 60_000 }, () => {
  it('handles a verified event once, however often it is delivered, and refuses forged ones', async () => {
    const session = await new VoiceEval({ baseUrl: url, logLevel: 'off' }).auth.signup({
      email: `owner-${randomUUID().slice(0, 8)}@example.test`,
      password: 'correct horse battery staple',
    });
    const client = new VoiceEval({ baseUrl: url, accessToken: session.access_token, logLevel: 'off' });
    const endpoint = await client.webhookEndpoints.create({
      url: `${url}/webhooks/voice-eval`,
      events: ['evaluation.completed'],
    });
    secret = endpoint.secret;
    const ping = await client.webhookEndpoints.ping(endpoint.id);
    const delivered = async () => (await client.webhookEndpoints.listDeliveries(endpoint.id)).items;
    await expect
      .poll(async () => (await delivered()).every((d) => d.status === 'delivered'), { timeout: 20_000 })
      .toBe(true);
    expect(events).toEqual([
      {
        event: { type: 'ping', timestamp: expect.any(String), data: { endpoint_id: endpoint.id } },
        id: ping.webhook_id,
      },
    ]);

    await client.webhookEndpoints.redeliver(endpoint.id, ping.id);
    await expect
      .poll(async () => (await delivered()).filter((d) => d.status === 'delivered').length, {
        timeout: 20_000,
      })
      .toBe(2);
    expect(events).toHaveLength(1);

    const forged = await fetch(`${url}/webhooks/voice-eval`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'webhook-id': 'msg_forged',
        'webhook-timestamp': String(Math.floor(Date.now() / 1000)),
        'webhook-signature': 'v1,AAAA',
      },
      body: JSON.stringify({ type: 'ping', timestamp: new Date().toISOString(), data: {} }),
    });
    expect(forged.status).toBe(400);
    expect(events).toHaveLength(1);
  });
});
