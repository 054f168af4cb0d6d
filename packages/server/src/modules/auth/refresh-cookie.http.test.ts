import type { AddressInfo } from 'node:net';
import express from 'express';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectProblem } from '../../../test/access-rules.js';
import { createHarness, type Harness } from '../../../test/harness.js';

let h: Harness;
let proxied: Harness;
let plain: Harness;
beforeAll(async () => {
  [h, proxied, plain] = await Promise.all([
    createHarness({ refreshTokenCookie: true }),
    createHarness({ refreshTokenCookie: true, trustProxy: 'loopback' }),
    createHarness({ refreshTokenCookie: false }),
  ]);
});

const PASSWORD = 'correct horse battery';

/** Signs up a new user and answers the raw response. */
const signup = (harness: Harness, headers: Record<string, string> = {}) =>
  fetch(`${harness.url}/api/v1/auth/signup`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify({ email: `cookie-${crypto.randomUUID()}@example.test`, password: PASSWORD }),
  });

/** The refresh cookie a response sets: its value and attributes. */
const refreshCookie = (res: Response) => {
  const set = res.headers.getSetCookie().find((c) => c.startsWith('voice_eval_refresh='));
  if (!set) return undefined;
  const [pair, ...attributes] = set.split(';').map((part) => part.trim());
  return { value: pair!.slice('voice_eval_refresh='.length), attributes };
};

const post = (harness: Harness, path: string, body: unknown, cookie?: string) =>
  fetch(`${harness.url}${path}`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      ...(cookie ? { cookie: `voice_eval_refresh=${cookie}` } : {}),
    },
    body: JSON.stringify(body),
  });

describe('the refresh cookie (refreshTokenCookie)', () => {
  it('is set HttpOnly, SameSite=Strict, for the auth routes only, for as long as the token lives', async () => {
    const res = await signup(h);
    expect(res.status).toBe(201);
    const session = await res.json();
    const cookie = refreshCookie(res);
    expect(cookie?.value).toBe(session.refresh_token);
    expect(cookie?.attributes).toEqual(
      expect.arrayContaining(['Path=/api/v1/auth', 'HttpOnly', 'SameSite=Strict', 'Max-Age=2592000']),
    );
    // plain HTTP: not Secure, or a browser on http://localhost would drop it
    expect(cookie?.attributes).not.toContain('Secure');
  });

  it('is scoped to the auth routes under the path a host app mounts the API at', async () => {
    const host = express();
    host.use('/voice', h.server.app);
    const server = host.listen(0, '127.0.0.1');
    afterAll(() => server.close());
    await new Promise((resolve) => server.once('listening', resolve));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/voice`;
    const cookie = refreshCookie(await signup({ ...h, url }));
    expect(cookie?.attributes).toContain('Path=/voice/api/v1/auth');
  });

  it('is Secure when the request came over HTTPS through a trusted proxy', async () => {
    const cookie = refreshCookie(await signup(proxied, { 'x-forwarded-proto': 'https' }));
    expect(cookie?.attributes).toContain('Secure');
  });

  it('refreshes a session without a body token, rotating the cookie; the old one is then refused', async () => {
    const first = refreshCookie(await signup(h))!.value;
    const refreshed = await post(h, '/api/v1/auth/refresh', {}, first);
    expect(refreshed.status).toBe(200);
    const rotated = refreshCookie(refreshed)!.value;
    expect(rotated).toBe((await refreshed.json()).refresh_token);
    expect(rotated).not.toBe(first);
    // the used token again is reuse: the family is revoked, the new cookie with it
    const reused = await post(h, '/api/v1/auth/refresh', {}, first);
    expect(reused.status).toBe(401);
    expect((await post(h, '/api/v1/auth/refresh', {}, rotated)).status).toBe(401);
  });

  it('is 401 for a refresh with neither a body token nor the cookie', async () => {
    const reply = await h.request('POST', '/api/v1/auth/refresh', { body: {} });
    expectProblem(reply, 401, 'unauthenticated');
  });

  it('is cleared and its token revoked on logout', async () => {
    const token = refreshCookie(await signup(h))!.value;
    const out = await post(h, '/api/v1/auth/logout', {}, token);
    expect(out.status).toBe(204);
    const cleared = refreshCookie(out);
    expect(cleared?.value).toBe('');
    expect(cleared?.attributes).toEqual(
      expect.arrayContaining(['Path=/api/v1/auth', expect.stringMatching(/^Expires=Thu, 01 Jan 1970/)]),
    );
    expect((await post(h, '/api/v1/auth/refresh', {}, token)).status).toBe(401);
  });

  it('is not set, nor read, when the option is off', async () => {
    const res = await signup(plain);
    expect(refreshCookie(res)).toBeUndefined();
    const { refresh_token } = await res.json();
    expectProblem(
      await plain.request('POST', '/api/v1/auth/refresh', {
        body: {},
        headers: { cookie: `voice_eval_refresh=${refresh_token}` },
      }),
      401,
      'unauthenticated',
    );
    // the body's token works as it always has
    expect((await post(plain, '/api/v1/auth/refresh', { refresh_token })).status).toBe(200);
  });
});
