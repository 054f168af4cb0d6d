import { beforeAll, describe, expect, it } from 'vitest';
import { expectProblem } from '../../test/access-rules.js';
import { createHarness, type Harness } from '../../test/harness.js';

let h: Harness;
beforeAll(async () => {
  h = await createHarness({ authRateLimitPerMinute: 3 });
});

describe('rate limits on credential endpoints', () => {
  it('answer 429 rate_limited with Retry-After once the limit is passed', async () => {
    const body = { email: 'nobody@example.test', password: 'wrong password' };
    for (let i = 0; i < 3; i++)
      expect((await h.request('POST', '/api/v1/auth/login', { body })).status).toBe(401);
    const limited = await h.request('POST', '/api/v1/auth/login', { body });
    expectProblem(limited, 429, 'rate_limited');
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
  });

  it('leave other endpoints alone', async () => {
    for (let i = 0; i < 5; i++) expect((await h.request('GET', '/api/v1/auth/config')).status).toBe(200);
  });
});
