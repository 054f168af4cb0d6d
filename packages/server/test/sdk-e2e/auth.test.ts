/**
 * Server, contract and SDK agree on auth: sessions, refresh, logout and credential errors.
 * Add an area the same way: `<area>.test.ts` here with `createSdkHarness`, `expectApiError` and
 * `expectPagination`.
 */
import { randomUUID } from 'node:crypto';
import { AuthenticationError, type Tokens, UnprocessableEntityError, VoiceEval } from '@voice-eval/sdk';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { expectApiError } from './conformance.js';
import { createSdkHarness, type SdkHarness } from './sdk-harness.js';

let h: SdkHarness;
beforeAll(async () => {
  h = await createSdkHarness();
});

const email = () => `sdk-${randomUUID().slice(0, 8)}@example.test`;
const PASSWORD = 'correct horse battery';
describe('auth', () => {
  it('config is public', async () => {
    await expect(h.anonymous().auth.config()).resolves.toMatchObject({ signup_enabled: true });
  });

  it('e-mail and password log in lazily, once, and report the tokens', async () => {
    const address = email();
    const session = await h.anonymous().auth.signup({ email: address, password: PASSWORD, name: 'Lin' });
    expect(session.user).toMatchObject({ email: address, role: 'OWNER' });
    const onTokens = vi.fn<(tokens: Tokens) => void>();
    const client = new VoiceEval({
      baseUrl: h.url,
      email: address,
      password: PASSWORD,
      onTokens,
      logLevel: 'off',
    });
    const [me] = await Promise.all([client.auth.me(), client.workspaces.list()]);
    expect(me).toMatchObject({ principal_type: 'user', role: 'OWNER', user: { email: address } });
    expect(onTokens).toHaveBeenCalledTimes(1);
  });

  it('a wrong password is a 401 problem', async () => {
    const client = new VoiceEval({
      baseUrl: h.url,
      email: h.owner.user.email,
      password: 'not the password',
      logLevel: 'off',
    });
    await expectApiError(client.auth.me(), AuthenticationError, 401, 'unauthenticated');
  });

  it('an invalid access token is refreshed once for concurrent requests (the server revokes reused refresh tokens)', async () => {
    const { refresh_token } = await h
      .anonymous()
      .auth.login({ email: h.owner.user.email, password: 'correct horse battery' });
    const onTokens = vi.fn<(tokens: Tokens) => void>();
    const client = h.sdk({ accessToken: 'not-a-token', refreshToken: refresh_token, onTokens });
    const results = await Promise.all([client.auth.me(), client.workspaces.list(), client.auth.me()]);
    expect(results[0].organization.id).toBe(h.organizationId);
    expect(onTokens).toHaveBeenCalledTimes(1);
    const rotated = onTokens.mock.calls[0]![0];
    expect(rotated.refreshToken).not.toBe(refresh_token);
    // The old refresh token was used once by the SDK; presenting it again revokes the family.
    await expectApiError(
      h.anonymous().auth.refresh({ refresh_token }),
      AuthenticationError,
      401,
      'unauthenticated',
    );
  });

  it('logout answers 204 and the refresh token stops working', async () => {
    const session = await h.anonymous().auth.login({ email: h.owner.user.email, password: PASSWORD });
    await expect(
      h.anonymous().auth.logout({ refresh_token: session.refresh_token }),
    ).resolves.toBeUndefined();
    await expectApiError(
      h.anonymous().auth.refresh({ refresh_token: session.refresh_token }),
      AuthenticationError,
      401,
    );
  });

  it('no credentials and bad credentials are 401 problems', async () => {
    await expectApiError(h.anonymous().workspaces.list(), AuthenticationError, 401, 'unauthenticated');
    await expectApiError(
      h.anonymous({ apiKey: `ve_live_${'a'.repeat(38)}` }).auth.me(),
      AuthenticationError,
      401,
    );
  });

  it('body validation failures are 422 problems with field errors', async () => {
    const error = await expectApiError(
      h.anonymous().auth.signup({ email: 'not an e-mail', password: 'short' }),
      UnprocessableEntityError,
      422,
      'validation_failed',
    );
    expect(error.errors.map((e) => e.path).sort()).toEqual(['body.email', 'body.password']);
  });
});
