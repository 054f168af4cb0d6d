import { beforeAll, describe, expect, it } from 'vitest';
import { createHarness, type Harness } from '../../test/harness.js';

// The harness talks to the server over loopback, so the socket address is 127.0.0.1 or ::1.
const LIMIT = 2;
const login = (h: Harness, forwardedFor: string) =>
  h.request('POST', '/api/v1/auth/login', {
    headers: { 'x-forwarded-for': forwardedFor },
    body: { email: 'nobody@example.test', password: 'wrong password' },
  });

let trusting: Harness;
let direct: Harness;
beforeAll(async () => {
  [trusting, direct] = await Promise.all([
    createHarness({ authRateLimitPerMinute: LIMIT, trustProxy: 'loopback' }),
    createHarness({ authRateLimitPerMinute: LIMIT }),
  ]);
});

describe('VOICE_EVAL_TRUST_PROXY', () => {
  it('when the proxy is trusted, the client IP (and so the rate-limit key) comes from X-Forwarded-For', async () => {
    for (let i = 0; i < LIMIT; i++) expect((await login(trusting, '203.0.113.1')).status).toBe(401);
    expect((await login(trusting, '203.0.113.1')).status).toBe(429);
    // another client behind the same proxy has its own budget
    expect((await login(trusting, '203.0.113.2')).status).toBe(401);
    // the proxy appends the address it saw: the right-most untrusted hop is the client
    expect((await login(trusting, '198.51.100.9, 203.0.113.1')).status).toBe(429);
  });

  it('by default X-Forwarded-For is ignored: a client cannot spoof its way past the limit', async () => {
    for (let i = 0; i < LIMIT; i++) expect((await login(direct, `203.0.113.${10 + i}`)).status).toBe(401);
    expect((await login(direct, '203.0.113.99')).status).toBe(429);
  });
});
