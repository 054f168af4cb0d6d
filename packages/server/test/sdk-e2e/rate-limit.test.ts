import { RateLimitError } from '@voice-eval/sdk';
import { beforeAll, describe, expect, it } from 'vitest';
import { expectApiError } from './conformance.js';
import { createSdkHarness, type SdkHarness } from './sdk-harness.js';

let h: SdkHarness;
beforeAll(async () => {
  h = await createSdkHarness({ authRateLimitPerMinute: 2 });
});

describe('rate limits', () => {
  it('the credential endpoints answer 429 with Retry-After, surfaced as RateLimitError', async () => {
    const client = h.anonymous();
    const login = () => client.auth.login({ email: 'nobody@example.test', password: 'not a password' });
    await login().catch(() => undefined);
    await login().catch(() => undefined);
    const error = await expectApiError(login(), RateLimitError, 429, 'rate_limited');
    expect(error.retryAfter).toBeGreaterThan(0);
    expect(error.retryAfter).toBeLessThanOrEqual(60);
  });
});
