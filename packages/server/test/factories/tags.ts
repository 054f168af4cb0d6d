import type { RequestBody, Tag } from '@voice-eval/sdk';
import type { Harness, Tenant } from '../harness.js';

/** A tag of the tenant, made through the SDK as its OWNER (a unique name unless overridden). */
export const makeTag = async (
  _h: Harness,
  tenant: Tenant,
  overrides: Partial<RequestBody<'tags', 'create'>> = {},
): Promise<Tag> => {
  const client = await tenant.client('OWNER');
  return client.tags.create({ name: `tag-${Math.random().toString(36).slice(2, 8)}`, ...overrides });
};
