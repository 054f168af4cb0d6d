import type { RequestBody, WebhookEndpointWithSecret } from '@voice-eval/sdk';
import type { Harness, Tenant } from '../harness.js';

/** Test factories for webhook endpoints, made through the SDK as an ADMIN of the tenant. */

/** Where `makeWebhookEndpoint` points unless overridden: the discard port of loopback (allow `127.0.0.1`). */
export const TEST_HOOK_URL = 'http://127.0.0.1:9/hooks/a';

/** An endpoint of the tenant for `evaluation.completed` at `TEST_HOOK_URL` unless overridden; the answer carries its secret. */
export const makeWebhookEndpoint = async (
  _h: Harness,
  t: Tenant,
  overrides: Partial<RequestBody<'webhookEndpoints', 'create'>> = {},
): Promise<WebhookEndpointWithSecret> =>
  (await t.client('ADMIN')).webhookEndpoints.create({
    url: TEST_HOOK_URL,
    events: ['evaluation.completed'],
    ...overrides,
  });
