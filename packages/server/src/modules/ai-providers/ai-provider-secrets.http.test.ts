import { AIProviderTestResultSchema } from '@voice-eval/contract';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeAiProvider } from '../../../test/factories/ai-providers.js';
import { createHarness, type Harness } from '../../../test/harness.js';
import { type OpenAiDouble, startOpenAiDouble } from '../../testing/openai-compatible.js';

const API_KEY = 'sk-live-4f9d2c7a1b8e6f3d5a0c9b7e2d4f6a8c';
const GATEWAY_SECRET = 'gw-secret-91c3e5a7b9d1f3a5c7e9';

/** Every log line of the server, to prove secrets never reach them. */
const logLines: string[] = [];
let h: Harness;
let double: OpenAiDouble;
beforeAll(async () => {
  const logger = pino({ level: 'trace' }, { write: (line: string) => void logLines.push(line) });
  h = await createHarness({ logger, fetchAllowlist: ['127.0.0.1'] });
  double = await startOpenAiDouble({ auth: { header: 'authorization', value: `Bearer ${API_KEY}` } });
});
afterAll(() => double?.close());

describe('AI provider secrets', () => {
  it('stores the api_key sealed, answers it masked, and never logs it', async () => {
    const t = await h.createTenant();
    const created = await makeAiProvider(h, t, {
      provider: 'openai_compatible',
      api_key: API_KEY,
      endpoint_url: double.url,
      gateway_auth_secret: GATEWAY_SECRET,
    });
    expect(created.api_key).toBe('sk-...6a8c');
    const row = await h.db('ai_providers').where({ id: created.id }).first();
    const stored = JSON.stringify(row);
    for (const secret of [API_KEY, GATEWAY_SECRET]) {
      expect(stored).not.toContain(secret);
      expect(stored).not.toContain(secret.slice(8, 24));
    }
    expect(row.api_key_sealed).toMatch(/^v1\.[0-9a-f]{8}\./);
    const headers = await t.as('ADMIN');
    const replies = [
      await h.request('GET', `/api/v1/aiproviders/${created.id}`, { headers }),
      await h.request('GET', '/api/v1/aiproviders', { headers }),
      await h.request('PATCH', `/api/v1/aiproviders/${created.id}`, { headers, body: { name: 'Renamed' } }),
      await h.request('POST', `/api/v1/aiproviders/${created.id}/test`, { headers, body: {} }),
    ];
    for (const reply of replies) {
      expect(reply.status).toBeLessThan(300);
      expect(JSON.stringify(reply.body)).not.toContain(API_KEY);
      expect(JSON.stringify(reply.body)).not.toContain(GATEWAY_SECRET);
    }
    expect(replies[3]!.body.ok).toBe(true);
    const logs = logLines.join('');
    expect(logs).toContain('ai_provider:tested');
    expect(logs).not.toContain(API_KEY);
    expect(logs).not.toContain(GATEWAY_SECRET);
  });

  it('a failed test reports invalid_credentials without echoing the key, and records last_tested_at', async () => {
    const t = await h.createTenant();
    const wrongKey = 'sk-wrong-0a1b2c3d4e5f6a7b8c9d0e1f';
    const created = await makeAiProvider(h, t, { api_key: wrongKey, endpoint_url: double.url });
    expect(created.last_tested_at).toBeNull();
    const reply = await h.request('POST', `/api/v1/aiproviders/${created.id}/test`, {
      headers: await t.as('ADMIN'),
      body: {},
    });
    const result = AIProviderTestResultSchema.parse(reply.body);
    expect(result).toMatchObject({ ok: false, models: [], error: { code: 'invalid_credentials' } });
    expect(JSON.stringify(reply.body)).not.toContain(wrongKey);
    expect(logLines.join('')).not.toContain(wrongKey);
    const after = await h.request('GET', `/api/v1/aiproviders/${created.id}`, {
      headers: await t.as('READER'),
    });
    expect(after.body.last_tested_at).toBe(result.tested_at);
  });

  it('a successful test lists the models through the gateway with the stored key', async () => {
    const t = await h.createTenant();
    const created = await makeAiProvider(h, t, { api_key: API_KEY, endpoint_url: double.url });
    const before = double.requests.length;
    const reply = await h.request('POST', `/api/v1/aiproviders/${created.id}/test`, {
      headers: await t.as('OWNER'),
      body: {},
    });
    expect(reply.body).toMatchObject({ ok: true, error: null });
    expect(reply.body.models).toContain('whisper-1');
    const call = double.requests.slice(before).find((r) => r.path === '/v1/models');
    expect(call?.headers.authorization).toBe(`Bearer ${API_KEY}`);
  });

  it('a test without a usable endpoint is endpoint_not_configured; via a gateway, gateway_not_configured', async () => {
    const t = await h.createTenant();
    const headers = await t.as('ADMIN');
    const direct = await makeAiProvider(h, t, { provider: 'vllm' });
    const gateway = await makeAiProvider(h, t, { routing_mode: 'gateway' });
    const a = await h.request('POST', `/api/v1/aiproviders/${direct.id}/test`, { headers, body: {} });
    const b = await h.request('POST', `/api/v1/aiproviders/${gateway.id}/test`, { headers, body: {} });
    expect(a.body.error.code).toBe('endpoint_not_configured');
    expect(b.body.error.code).toBe('gateway_not_configured');
  });
});
