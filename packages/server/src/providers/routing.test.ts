import { describe, expect, it } from 'vitest';
import { type AiProviderRecord, resolveRouting } from './routing.js';

const record = (overrides: Partial<AiProviderRecord> = {}): AiProviderRecord => ({
  provider: 'openai',
  api_key: 'sk-direct-key',
  is_active: true,
  is_default: true,
  ...overrides,
});

describe('resolveRouting', () => {
  it('routes direct with the api key as a Bearer token and a known base URL', () => {
    expect(resolveRouting(record(), { env: {} })).toEqual({
      effective_routing: 'inherit',
      effective_gateway_interface: 'litellm_shim',
      has_gateway_auth_secret: false,
      gateway_auth_secret_status: 'not_configured',
      base_url: 'https://api.openai.com/v1',
      headers: { Authorization: 'Bearer sk-direct-key' },
      secrets: ['sk-direct-key'],
    });
    expect(resolveRouting(record({ provider: 'groq' }), { env: {} }).base_url).toBe(
      'https://api.groq.com/openai/v1',
    );
    expect(
      resolveRouting(record({ provider: 'vllm', endpoint_url: 'http://gpu:8000/v1' }), { env: {} }).base_url,
    ).toBe('http://gpu:8000/v1');
    expect(resolveRouting(record({ provider: 'vllm' }), { env: {} }).base_url).toBeNull();
  });

  it('inherits gateway routing when a gateway base URL is set, direct (effective inherit) otherwise', () => {
    expect(
      resolveRouting(record({ gateway_base_url: 'https://gw.example/v1' }), { env: {} }).effective_routing,
    ).toBe('gateway');
    expect(
      resolveRouting(record({ routing_mode: 'direct', gateway_base_url: 'https://gw.example/v1' }), {
        env: {},
      }),
    ).toMatchObject({ effective_routing: 'direct', base_url: 'https://api.openai.com/v1' });
    expect(resolveRouting(record({ routing_mode: 'gateway' }), { env: {} })).toMatchObject({
      effective_routing: 'gateway',
      base_url: null,
    });
  });

  it('puts the gateway secret under the configured header, Bearer for Authorization', () => {
    const env = { VOICE_EVAL_GATEWAY_KEY: 'gw-secret-value' };
    const gateway = {
      gateway_base_url: 'https://gw.example/v1',
      gateway_auth_secret_env: 'VOICE_EVAL_GATEWAY_KEY',
      gateway_extra_headers: { 'X-Tenant': 'acme' },
    };
    expect(
      resolveRouting(record({ ...gateway, gateway_auth_header: 'x-litellm-api-key' }), { env }),
    ).toMatchObject({
      has_gateway_auth_secret: true,
      headers: { 'X-Tenant': 'acme', 'x-litellm-api-key': 'gw-secret-value' },
      secrets: ['gw-secret-value', 'sk-direct-key'],
    });
    expect(resolveRouting(record(gateway), { env }).headers).toEqual({
      'X-Tenant': 'acme',
      Authorization: 'Bearer gw-secret-value',
    });
  });

  it('falls back to the api key on a gateway without a secret variable', () => {
    const routing = resolveRouting(record({ gateway_base_url: 'https://gw.example/v1' }), { env: {} });
    expect(routing.headers).toEqual({ Authorization: 'Bearer sk-direct-key' });
  });

  it('reads only allowed secret variables', () => {
    const env = { DATABASE_URL: 'postgres://secret', MY_GW: 'token-123456' };
    const base = { gateway_base_url: 'https://gw.example/v1', api_key: null };
    expect(
      resolveRouting(record({ ...base, gateway_auth_secret_env: 'DATABASE_URL' }), { env }),
    ).toMatchObject({
      has_gateway_auth_secret: false,
      gateway_auth_secret_status: 'not_allowed',
      headers: {},
    });
    expect(
      resolveRouting(record({ ...base, gateway_auth_secret_env: 'VOICE_EVAL_GATEWAY_X' }), { env }),
    ).toMatchObject({ gateway_auth_secret_status: 'missing' });
    const allowed = resolveRouting(record({ ...base, gateway_auth_secret_env: 'MY_GW' }), {
      env,
      isSecretEnvAllowed: (name) => name === 'MY_GW',
    });
    expect(allowed).toMatchObject({
      has_gateway_auth_secret: true,
      headers: { Authorization: 'Bearer token-123456' },
    });
  });

  it('uses a stored gateway secret when no secret variable is named; the variable wins', () => {
    const base = {
      gateway_base_url: 'https://gw.example/v1',
      api_key: null,
      gateway_auth_secret: 'stored-gw-1',
    };
    expect(resolveRouting(record(base), { env: {} })).toMatchObject({
      has_gateway_auth_secret: true,
      gateway_auth_secret_status: 'present',
      headers: { Authorization: 'Bearer stored-gw-1' },
    });
    const env = { VOICE_EVAL_GATEWAY_KEY: 'from-env-2' };
    expect(
      resolveRouting(record({ ...base, gateway_auth_secret_env: 'VOICE_EVAL_GATEWAY_KEY' }), { env }).headers,
    ).toEqual({ Authorization: 'Bearer from-env-2' });
  });

  it('keeps an explicit gateway interface', () => {
    expect(
      resolveRouting(record({ gateway_interface: 'native_openai' }), { env: {} }).effective_gateway_interface,
    ).toBe('native_openai');
    expect(
      resolveRouting(record({ gateway_interface: 'anthropic_messages' }), { env: {} })
        .effective_gateway_interface,
    ).toBe('anthropic_messages');
  });
});
