import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PlatformsDouble } from '../../../test/doubles/platforms.js';
import {
  closeIngestWorld,
  type IngestWorld,
  startIngestWorld,
} from '../../../test/factories/ingest-world.js';
import { connectPlatform } from '../../../test/factories/production-calls.js';
import type { Harness } from '../../../test/harness.js';

let world: IngestWorld;
let h: Harness;
let platforms: PlatformsDouble;
let agentId: string;
beforeAll(async () => {
  world = await startIngestWorld();
  ({ h, platforms, agentId } = world);
});
afterAll(() => closeIngestWorld(world));

describe('POST /integrations/{id}/test', () => {
  it("lists from each platform's API with the stored credentials, and says why a test failed", async () => {
    platforms.accept('vapi', 'vapi-good-key');
    platforms.accept('retell', 'retell-good-key');
    platforms.acceptTwilio('AC00000000000000000000000000000099', 'good-token');
    platforms.accept('elevenlabs', 'xi-good-key');
    const test = async (
      platform: string,
      secret: string,
      publicKey: string | null = null,
      apiKey: string | null = null,
    ) => {
      const integration = await connectPlatform(h, h, platform, agentId, secret, publicKey, apiKey);
      const reply = await h.request('POST', `/api/v1/integrations/${integration.id}/test`, {
        headers: await h.as('ADMIN'),
        body: {},
      });
      expect(reply.status, JSON.stringify(reply.body)).toBe(200);
      const read = await h.request('GET', `/api/v1/integrations/${integration.id}`, {
        headers: await h.as('READER'),
      });
      return { ...reply.body, last_tested_at: read.body.last_tested_at };
    };
    expect(await test('vapi', 'vapi-good-key')).toMatchObject({
      ok: true,
      error: null,
      last_tested_at: expect.any(String),
    });
    expect(await test('retell', 'retell-good-key')).toMatchObject({ ok: true, error: null });
    expect(await test('twilio', 'good-token', 'AC00000000000000000000000000000099')).toMatchObject({
      ok: true,
    });
    expect(await test('vapi', 'vapi-bad-key')).toMatchObject({
      ok: false,
      error: { code: 'unauthorized' },
      last_tested_at: null,
    });
    expect(await test('twilio', 'bad-token', 'AC00000000000000000000000000000099')).toMatchObject({
      error: { code: 'unauthorized' },
    });
    expect(await test('twilio', 'good-token')).toMatchObject({
      error: { code: 'not_testable' },
      latency_ms: 0,
    });
    expect(await test('elevenlabs', 'wsec')).toMatchObject({ error: { code: 'not_testable' } });
    // the API key, not the webhook's secret, opens ElevenLabs' API
    expect(await test('elevenlabs', 'xi-good-key')).toMatchObject({ error: { code: 'not_testable' } });
    expect(await test('elevenlabs', 'wsec', null, 'xi-good-key')).toMatchObject({ ok: true, error: null });
    expect(await test('elevenlabs', 'wsec', null, 'xi-bad-key')).toMatchObject({
      error: { code: 'unauthorized' },
    });
    expect(
      platforms.served.some((s) => s.path === '/v1/convai/conversations' && s.apiKey === 'xi-good-key'),
    ).toBe(true);
    const forbidden = await h.request('POST', `/api/v1/integrations/${crypto.randomUUID()}/test`, {
      headers: await h.as('MEMBER'),
      body: {},
    });
    expect(forbidden.status).toBe(403);
  });
});
