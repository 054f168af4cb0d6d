/** Server, contract and SDK agree on AI providers: masked keys, routing, defaults, the test action. */
import {
  ConflictError,
  NotFoundError,
  PermissionDeniedError,
  UnprocessableEntityError,
} from '@voice-eval/sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type OpenAiDouble, startOpenAiDouble } from '../../src/testing/openai-compatible.js';
import { expectApiError, expectPagination } from './conformance.js';
import { unique } from './fixtures.js';
import { createSdkHarness, type SdkHarness } from './sdk-harness.js';

const API_KEY = 'sk-live-4f9d2c7a1b8e6f3d5a0c9b7e2d4f6a8c';

let h: SdkHarness;
let double: OpenAiDouble;
beforeAll(async () => {
  double = await startOpenAiDouble({ auth: { header: 'authorization', value: `Bearer ${API_KEY}` } });
  h = await createSdkHarness({ fetchAllowlist: ['127.0.0.1'] });
});
afterAll(() => double?.close());

describe('AI providers', () => {
  it('answers the key masked and routing resolved; get and update agree', async () => {
    const client = h.sdk();
    const created = await client.aiProviders.create({
      provider: 'openai_compatible',
      name: unique('Local'),
      api_key: API_KEY,
      endpoint_url: double.url,
    });
    expect(created).toMatchObject({
      api_key: 'sk-...6a8c',
      routing_mode: 'inherit',
      has_gateway_auth_secret: false,
    });
    expect(JSON.stringify(created)).not.toContain(API_KEY);
    await expect(client.aiProviders.get(created.id)).resolves.toEqual(created);
    const renamed = await client.aiProviders.update(created.id, { name: unique('Renamed') });
    expect(renamed).toMatchObject({ api_key: 'sk-...6a8c', endpoint_url: double.url });
  });

  it('test lists the models through the double with the stored key, or reports why it failed', async () => {
    const client = h.sdk({}, await h.createTenant());
    const good = await client.aiProviders.create({
      provider: 'openai_compatible',
      name: 'Good',
      api_key: API_KEY,
      endpoint_url: double.url,
    });
    const ok = await client.aiProviders.test(good.id);
    expect(ok).toMatchObject({ ok: true, error: null });
    expect(ok.models).toContain('whisper-1');
    expect((await client.aiProviders.get(good.id)).last_tested_at).toBe(ok.tested_at);
    const wrong = await client.aiProviders.create({
      provider: 'openai_compatible',
      name: 'Wrong',
      api_key: 'sk-wrong-0a1b2c3d4e5f6a7b8c9d',
      endpoint_url: double.url,
    });
    await expect(client.aiProviders.test(wrong.id)).resolves.toMatchObject({
      ok: false,
      models: [],
      error: { code: 'invalid_credentials' },
    });
  });

  it('keeps one default; lists filter by provider, across pages', async () => {
    const client = h.sdk({}, await h.createTenant());
    const first = await client.aiProviders.create({ provider: 'vllm', name: 'A' });
    const second = await client.aiProviders.create({ provider: 'groq', name: 'B' });
    expect([first.is_default, second.is_default]).toEqual([true, false]);
    await client.aiProviders.update(second.id, { is_default: true });
    const third = await client.aiProviders.create({ provider: 'vllm', name: 'C' });
    const all = await client.aiProviders.list();
    expect(all.items.filter((p) => p.is_default).map((p) => p.id)).toEqual([second.id]);
    await expectPagination((q) => client.aiProviders.list(q), [third.id, second.id, first.id], 2);
    expect((await client.aiProviders.list({ provider: 'groq' })).items.map((p) => p.id)).toEqual([second.id]);
  });

  it('routing rules are 422 problems; duplicate names 409', async () => {
    const client = h.sdk();
    await expectApiError(
      client.aiProviders.create({ provider: 'openai', name: unique('No key'), routing_mode: 'direct' }),
      UnprocessableEntityError,
      422,
      'rule_violation',
    );
    const name = unique('Main');
    await client.aiProviders.create({ provider: 'vllm', name });
    await expectApiError(
      client.aiProviders.create({ provider: 'vllm', name: name.toUpperCase() }),
      ConflictError,
      409,
      'conflict',
    );
  });

  it('delete answers 204; foreign ids are 404 problems; members cannot write', async () => {
    const client = h.sdk();
    const created = await client.aiProviders.create({ provider: 'vllm', name: unique('Gone') });
    const other = h.sdk({}, await h.createTenant());
    await expectApiError(other.aiProviders.get(created.id), NotFoundError, 404, 'not_found');
    await expect(client.aiProviders.delete(created.id)).resolves.toBeUndefined();
    await expectApiError(client.aiProviders.test(created.id), NotFoundError, 404, 'not_found');
    const member = await h.sdkAs('MEMBER');
    await expectApiError(
      member.aiProviders.create({ provider: 'vllm', name: unique('No') }),
      PermissionDeniedError,
      403,
      'forbidden',
    );
  });
});
