import type { Integration, RequestBody } from '@voice-eval/sdk';
import type { Harness, Tenant } from '../harness.js';

/** Test factories for platform integrations, made through the SDK as an ADMIN of the tenant. */

let seq = 0;

/** The secret key of the integrations `makeIntegration` connects unless overridden. */
export const INTEGRATION_SECRET = 'vapi-private-3c5e7a9b1d3f5a7c9e1b';

/** A Vapi integration of the tenant with a unique name and `INTEGRATION_SECRET`, unless overridden. */
export const makeIntegration = async (
  _h: Harness,
  t: Tenant,
  overrides: Partial<RequestBody<'integrations', 'create'>> = {},
): Promise<Integration> =>
  (await t.client('ADMIN')).integrations.create({
    platform: 'vapi',
    name: `Vapi ${++seq}`,
    secret_key: INTEGRATION_SECRET,
    ...overrides,
  });
