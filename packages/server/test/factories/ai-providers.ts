import type { AIProvider, RequestBody } from '@voice-eval/sdk';
import type { Harness, Tenant } from '../harness.js';

/** Test factories for AI provider credentials, made through the SDK as an ADMIN of the tenant. */

let seq = 0;

/** A credential of the tenant: a `vllm` provider with a unique name unless overridden. */
export const makeAiProvider = async (
  _h: Harness,
  t: Tenant,
  overrides: Partial<RequestBody<'aiProviders', 'create'>> = {},
): Promise<AIProvider> =>
  (await t.client('ADMIN')).aiProviders.create({ provider: 'vllm', name: `Local ${++seq}`, ...overrides });
