import pino from 'pino';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createAddressPolicy } from '../net/address-policy.js';
import { chatReply, type OpenAiDouble, startOpenAiDouble } from '../testing/openai-compatible.js';
import { readDefaultProviderConfig } from './default-config.js';
import { createProviderGateway } from './gateway.js';
import type { AiProviderRecord } from './routing.js';
import type { UsageEvent } from './types.js';

const GATEWAY_SECRET = 'gw-secret-7f3a9c1d2e';
const API_KEY = 'sk-org-key-5b8e2f4a6c';
const request = {
  system: 'Answer in JSON.',
  user: 'ok?',
  schema: z.object({ ok: z.boolean() }),
  schemaName: 'ok',
};

const makeRecord = (overrides: Partial<AiProviderRecord> = {}): AiProviderRecord => ({
  id: 'rec-1',
  provider: 'openai',
  endpoint_url: null,
  api_key: API_KEY,
  routing_mode: 'inherit',
  gateway_model: null,
  gateway_interface: 'inherit',
  gateway_base_url: null,
  gateway_auth_header: null,
  gateway_auth_secret_env: null,
  gateway_extra_headers: null,
  enabled_models: ['gpt-4o-mini'],
  is_active: true,
  is_default: false,
  ...overrides,
});

function captureLogs() {
  const lines: string[] = [];
  const logger = pino({ level: 'debug' }, { write: (line: string) => void lines.push(line) });
  return { logger, text: () => lines.join('') };
}

let double: OpenAiDouble;
beforeEach(async () => {
  double = await startOpenAiDouble();
});
afterEach(() => double.close());

describe('forOrganization', () => {
  it("picks the organization's default active provider", async () => {
    const gateway = createProviderGateway();
    const records = [
      makeRecord({ id: 'inactive', is_active: false, is_default: true }),
      makeRecord({ id: 'plain', provider: 'groq' }),
      makeRecord({ id: 'chosen', is_default: true }),
    ];
    expect(gateway.forOrganization(records)).toMatchObject({
      ok: true,
      source: 'organization',
      record_id: 'chosen',
    });
    expect(gateway.forOrganization(records, { provider: 'groq' })).toMatchObject({
      ok: true,
      record_id: 'plain',
    });
    expect(gateway.forOrganization([makeRecord({ id: 'only' })])).toMatchObject({
      ok: true,
      record_id: 'only',
    });
  });

  it('falls back to the server default, else returns ai_provider_not_configured', async () => {
    const defaults = readDefaultProviderConfig({
      VOICE_EVAL_LLM_BASE_URL: double.url,
      VOICE_EVAL_LLM_MODEL: 'gpt-4o-mini',
    });
    const selected = createProviderGateway({ defaults }).forOrganization([makeRecord({ is_active: false })]);
    expect(selected).toMatchObject({ ok: true, source: 'server_default', record_id: null });
    double.enqueue('/v1/chat/completions', chatReply({ ok: true }));
    const result = selected.ok ? await selected.provider.chat(request) : null;
    expect(result).toMatchObject({ ok: true, provider: 'default', model: 'gpt-4o-mini' });

    expect(createProviderGateway().forOrganization([])).toMatchObject({
      ok: false,
      error: { code: 'ai_provider_not_configured' },
    });
    expect(createProviderGateway({ defaults }).forOrganization([], { purpose: 'stt' })).toMatchObject({
      ok: true,
    });
  });

  it('serves text to speech from the server default, else from the TTS model among enabled_models', async () => {
    const defaults = readDefaultProviderConfig({
      VOICE_EVAL_LLM_BASE_URL: 'http://127.0.0.1:9/v1',
      VOICE_EVAL_TTS_BASE_URL: double.url,
      VOICE_EVAL_TTS_API_KEY: 'sk-tts-default',
      VOICE_EVAL_TTS_MODEL: 'tts-1-hd',
    });
    const gateway = createProviderGateway({ defaults });
    const picked = gateway.forOrganization([], { purpose: 'tts' });
    expect(picked).toMatchObject({ ok: true, source: 'server_default' });
    const spoken = picked.ok ? await picked.provider.speak({ voice: 'nova', text: 'Hi' }) : null;
    expect(spoken).toMatchObject({ ok: true, provider: 'default', model: 'tts-1-hd' });
    expect(double.requests.at(-1)?.headers.authorization).toBe('Bearer sk-tts-default');

    const record = makeRecord({
      endpoint_url: double.url,
      enabled_models: ['gpt-4o-mini-tts', 'gpt-4o-mini', 'whisper-1'],
    });
    const fromRow = gateway.forOrganization([record], { purpose: 'tts' });
    expect(fromRow).toMatchObject({ ok: true, source: 'organization' });
    if (!fromRow.ok) throw new Error('expected a provider');
    expect(await fromRow.provider.speak({ voice: 'nova', text: 'Hi' })).toMatchObject({
      ok: true,
      model: 'gpt-4o-mini-tts',
    });
    double.enqueue('/v1/chat/completions', chatReply({ ok: true }));
    // the TTS model listed first is not taken for chat
    expect(await fromRow.provider.chat(request)).toMatchObject({ ok: true, model: 'gpt-4o-mini' });
  });

  it('takes the model VOICE_EVAL_TTS_MODEL names to speak, and says which purpose lacks a default', async () => {
    await double.close();
    double = await startOpenAiDouble({ ttsModels: ['house-voice-v2'] });
    const defaults = readDefaultProviderConfig({
      VOICE_EVAL_TTS_BASE_URL: double.url,
      VOICE_EVAL_TTS_MODEL: 'house-voice-v2',
    });
    const picked = createProviderGateway({ defaults }).forOrganization([], { purpose: 'tts' });
    const spoken = picked.ok ? await picked.provider.speak({ voice: 'af_bella', text: 'Hi' }) : null;
    expect(spoken).toMatchObject({ ok: true, model: 'house-voice-v2' });
    expect(createProviderGateway().forOrganization([], { purpose: 'tts' })).toMatchObject({
      ok: false,
      error: {
        code: 'ai_provider_not_configured',
        message: 'no active AI provider and no server default for text to speech',
      },
    });
  });

  it('refuses rows whose URL the server does not allow', () => {
    const gateway = createProviderGateway({ isUrlAllowed: (url) => url.hostname !== '127.0.0.1' });
    expect(gateway.forRecord(makeRecord({ endpoint_url: double.url }))).toMatchObject({
      ok: false,
      error: { code: 'ai_provider_not_configured', message: 'the provider URL is not allowed by the server' },
    });
  });

  it('calls organization rows under the address policy, and the operator-configured server default without it', async () => {
    const strict = createAddressPolicy([]);
    const defaults = readDefaultProviderConfig({
      VOICE_EVAL_LLM_BASE_URL: double.url,
      VOICE_EVAL_LLM_MODEL: 'gpt-4o-mini',
    });
    const gateway = createProviderGateway({
      defaults,
      addressPolicy: () => strict,
      retry: { maxRetries: 3 },
    });
    const org = gateway.forRecord(makeRecord({ endpoint_url: double.url }));
    if (!org.ok) throw new Error('expected a provider');
    const refused = await org.provider.chat(request);
    expect(refused).toMatchObject({
      ok: false,
      error: {
        code: 'provider_error',
        message: expect.stringMatching(/^refused: .*127\.0\.0\.1 is not allowed/),
      },
    });
    expect(double.requests).toEqual([]);
    double.enqueue('/v1/chat/completions', chatReply({ ok: true }));
    const fallback = gateway.forOrganization([]);
    if (!fallback.ok) throw new Error('expected the server default');
    expect(await fallback.provider.chat(request)).toMatchObject({ ok: true, value: { data: { ok: true } } });
    expect(double.requests).toHaveLength(1);
  });

  it('reports usage to the gateway hook', async () => {
    const events: UsageEvent[] = [];
    const gateway = createProviderGateway({ onUsage: (event) => void events.push(event) });
    const selected = gateway.forRecord(makeRecord({ endpoint_url: double.url }));
    double.enqueue(
      '/v1/chat/completions',
      chatReply({ ok: true }, { prompt_tokens: 3, completion_tokens: 2 }),
    );
    if (selected.ok) await selected.provider.chat(request);
    expect(events).toEqual([
      expect.objectContaining({ kind: 'chat', provider: 'openai', model: 'gpt-4o-mini' }),
    ]);
    expect(events[0]?.usage).toEqual({ prompt_tokens: 3, completion_tokens: 2, total_tokens: 5 });
  });
});

describe('gateway routing', () => {
  it('sends the configured auth header, the secret from the environment and the extra headers', async () => {
    await double.close();
    double = await startOpenAiDouble({
      auth: { header: 'x-gateway-key', value: GATEWAY_SECRET },
      expectHeaders: { 'x-team': 'evals', 'x-route': 'eu' },
    });
    const gateway = createProviderGateway({ env: { VOICE_EVAL_GATEWAY_SECRET: GATEWAY_SECRET } });
    const record = makeRecord({
      gateway_base_url: double.url,
      gateway_model: 'openrouter/google/gemini-2.5-flash',
      gateway_auth_header: 'X-Gateway-Key',
      gateway_auth_secret_env: 'VOICE_EVAL_GATEWAY_SECRET',
      gateway_extra_headers: { 'X-Team': 'evals', 'X-Route': 'eu' },
    });
    const selected = gateway.forOrganization([record]);
    double.enqueue('/v1/chat/completions', chatReply({ ok: true }));
    const result = selected.ok ? await selected.provider.chat(request) : null;

    expect(result).toMatchObject({ ok: true, model: 'openrouter/google/gemini-2.5-flash' });
    const headers = double.requests[0]?.headers;
    expect(headers).toMatchObject({ 'x-gateway-key': GATEWAY_SECRET, 'x-team': 'evals', 'x-route': 'eu' });
    expect(headers?.authorization).toBeUndefined();
  });

  it('refuses a gateway whose secret variable is missing or not allowed', () => {
    const gateway = createProviderGateway({ env: { DATABASE_URL: 'postgres://x' } });
    const base = { gateway_base_url: double.url, gateway_auth_header: 'x-key' };
    expect(gateway.forRecord(makeRecord({ ...base, gateway_auth_secret_env: 'DATABASE_URL' }))).toMatchObject(
      {
        ok: false,
        error: {
          code: 'ai_provider_not_configured',
          message: 'the gateway secret environment variable is not allowed',
        },
      },
    );
    expect(
      gateway.forRecord(makeRecord({ ...base, gateway_auth_secret_env: 'VOICE_EVAL_GATEWAY_NOPE' })),
    ).toMatchObject({
      ok: false,
      error: { code: 'ai_provider_not_configured' },
    });
  });
});

describe('secrets', () => {
  it('never logs or returns API keys, auth headers or gateway secrets', async () => {
    const logs = captureLogs();
    const env = { VOICE_EVAL_GATEWAY_TOKEN: GATEWAY_SECRET };
    const gateway = createProviderGateway({ logger: logs.logger, env, retry: { baseDelayMs: 1 } });

    await double.close();
    // A double that wants another key and echoes the one it got, as some gateways do.
    double = await startOpenAiDouble({ auth: { header: 'authorization', value: 'Bearer expected' } });
    const direct = gateway.forRecord(makeRecord({ endpoint_url: double.url }));
    const viaGateway = gateway.forRecord(
      makeRecord({
        gateway_base_url: double.url,
        gateway_auth_header: 'X-Proxy',
        gateway_auth_secret_env: 'VOICE_EVAL_GATEWAY_TOKEN',
      }),
    );
    const failures = [];
    for (const selected of [direct, viaGateway]) {
      if (!selected.ok) throw new Error('expected a provider');
      failures.push(await selected.provider.chat(request), await selected.provider.listModels());
    }

    expect(double.requests[0]?.headers.authorization).toBe(`Bearer ${API_KEY}`);
    expect(double.requests.at(-1)?.headers['x-proxy']).toBe(GATEWAY_SECRET);
    expect(failures.map((f) => !f.ok && f.error.code)).toEqual(Array(4).fill('provider_error'));
    const messages = failures.map((f) => (!f.ok ? f.error.message : '')).join('\n');
    expect(messages).toContain('Incorrect API key provided: [redacted]');
    expect(logs.text()).toContain('ai:failed');
    for (const secret of [API_KEY, GATEWAY_SECRET]) {
      expect(logs.text()).not.toContain(secret);
      expect(messages).not.toContain(secret);
    }
  });
});
