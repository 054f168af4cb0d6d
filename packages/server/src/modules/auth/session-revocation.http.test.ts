import type { Session } from '@voice-eval/contract';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { expectProblem } from '../../../test/access-rules.js';
import { createHarness, type Harness } from '../../../test/harness.js';
import { findRefreshToken, revokeRefreshFamily } from './repo.js';
import { sha256 } from './tokens.js';

let h: Harness;
let realNow: () => Date;
beforeAll(async () => {
  h = await createHarness();
  realNow = h.server.deps.now;
});
afterEach(() => {
  h.server.deps.now = realNow;
});

const signup = async (): Promise<Session> => {
  const reply = await h.request('POST', '/api/v1/auth/signup', {
    body: {
      email: `session-${Math.random().toString(36).slice(2)}@example.test`,
      password: 'a long enough password',
    },
  });
  expect(reply.status).toBe(201);
  return reply.body;
};
const me = (session: Pick<Session, 'access_token'>) =>
  h.request('GET', '/api/v1/auth/me', { headers: { authorization: `Bearer ${session.access_token}` } });
const refresh = (session: Pick<Session, 'refresh_token'>) =>
  h.request('POST', '/api/v1/auth/refresh', { body: { refresh_token: session.refresh_token } });

describe('access tokens end with their session, not at expiry', () => {
  it('logout: the access token of that session is refused at once on this instance', async () => {
    const session = await signup();
    expect((await me(session)).status).toBe(200); // now cached as an open session
    expect(
      (await h.request('POST', '/api/v1/auth/logout', { body: { refresh_token: session.refresh_token } }))
        .status,
    ).toBe(204);
    expectProblem(await me(session), 401, 'unauthenticated');
  });

  it('refresh-token reuse: every access token of the family is refused, the rotated one included', async () => {
    const first = await signup();
    const second = (await refresh(first)).body as Session;
    expect((await me(first)).status).toBe(200);
    expect((await me(second)).status).toBe(200);
    expectProblem(await refresh(first), 401); // the replay of a used refresh token
    expectProblem(await me(first), 401, 'unauthenticated');
    expectProblem(await me(second), 401, 'unauthenticated');
  });

  it('a session revoked by another instance ends here once the credential cache entry expires', async () => {
    const session = await signup();
    const other = await signup();
    expect((await me(session)).status).toBe(200);
    expect((await me(other)).status).toBe(200);
    // another instance's logout: the database changes, this instance's cache does not hear of it
    const row = await findRefreshToken(h.db, sha256(session.refresh_token));
    await revokeRefreshFamily(h.db, row!.family_id, realNow());
    const ttlMs = h.server.deps.authCache.ttlMs;
    h.server.deps.now = () => new Date(realNow().getTime() + ttlMs - 1_000);
    expect((await me(session)).status).toBe(200); // still inside the cache window
    h.server.deps.now = () => new Date(realNow().getTime() + ttlMs + 1);
    expectProblem(await me(session), 401, 'unauthenticated');
    expect((await me(other)).status).toBe(200); // other sessions of other users go on
  });

  it('logging out one session leaves the same user’s other sessions working', async () => {
    const first = await signup();
    const login = await h.request('POST', '/api/v1/auth/login', {
      body: { email: first.user.email, password: 'a long enough password' },
    });
    expect(login.status).toBe(200);
    await h.request('POST', '/api/v1/auth/logout', { body: { refresh_token: first.refresh_token } });
    expectProblem(await me(first), 401);
    expect((await me(login.body)).status).toBe(200);
  });
});
