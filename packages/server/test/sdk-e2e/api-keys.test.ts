/**
 * Server, contract and SDK agree on API keys: generation, listing, revocation and roles.
 * Add an area the same way: `<area>.test.ts` here with `createSdkHarness`, `expectApiError` and
 * `expectPagination`.
 */
import { AuthenticationError, PermissionDeniedError, VoiceEval } from '@voice-eval/sdk';
import { beforeAll, describe, expect, it } from 'vitest';
import { expectApiError } from './conformance.js';
import { createSdkHarness, type SdkHarness } from './sdk-harness.js';

let h: SdkHarness;
beforeAll(async () => {
  h = await createSdkHarness();
});

describe('API keys', () => {
  it('a generated key authenticates, is listed without its secret, and stops working when revoked', async () => {
    const owner = h.sdk();
    const created = await owner.auth.generateKey({ name: 'SDK e2e' });
    const keyClient = new VoiceEval({ baseUrl: h.url, apiKey: created.key, maxRetries: 0, logLevel: 'off' });
    await expect(keyClient.auth.me()).resolves.toMatchObject({
      principal_type: 'api_key',
      api_key: { id: created.id },
    });
    const listed = await owner.apiKeys.list().toArray({ limit: 100 });
    expect(listed.find((k) => k.id === created.id)).toMatchObject({
      name: 'SDK e2e',
      prefix: created.prefix,
      revoked_at: null,
    });
    await expect(owner.apiKeys.revoke(created.id)).resolves.toBeUndefined();
    await expectApiError(keyClient.auth.me(), AuthenticationError, 401);
    const all = await owner.apiKeys.list({ include_revoked: true }).toArray({ limit: 100 });
    expect(all.find((k) => k.id === created.id)?.revoked_at).toEqual(expect.any(String));
  });

  it('API keys cannot generate keys (interactive users only)', async () => {
    const keyClient = await h.sdkWithApiKey();
    await expectApiError(
      keyClient.auth.generateKey(),
      PermissionDeniedError,
      403,
      'interactive_user_required',
    );
  });

  it('listing keys needs ADMIN', async () => {
    await expectApiError((await h.sdkAs('MEMBER')).apiKeys.list(), PermissionDeniedError, 403, 'forbidden');
  });
});
