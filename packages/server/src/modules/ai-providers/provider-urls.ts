import type { Deps } from '../../deps.js';
import { ApiError, type FieldError } from '../../errors.js';
import { createAddressPolicy } from '../../net/address-policy.js';
import { checkUrlAtSave } from '../../net/url-check.js';

type UrlFields = { endpoint_url?: string | null; gateway_base_url?: string | null };

const URL_FIELDS = ['endpoint_url', 'gateway_base_url'] as const;

/**
 * Checks the provider URLs of a create or update body before they are stored: http(s), no
 * credentials in them, and a host (an address, or every address its name resolves to now) the
 * server's address policy allows, so a credential cannot point the server at its own network
 * (private, loopback and link-local hosts are refused unless `fetchAllowlist` names them). Calls
 * are checked again at call time (the guarded fetch of the provider gateway). 422
 * `rule_violation` naming each refused field.
 */
export const assertProviderUrls = async (deps: Pick<Deps, 'config'>, body: UrlFields) => {
  const policy = createAddressPolicy(deps.config.fetchAllowlist);
  const problems: FieldError[] = [];
  for (const field of URL_FIELDS) {
    const url = body[field];
    if (!url) continue;
    const checked = await checkUrlAtSave(url, policy);
    if (!checked.ok) problems.push({ path: `body.${field}`, message: checked.message });
  }
  if (problems.length > 0) {
    throw new ApiError('rule_violation', problems.map((p) => `${p.path}: ${p.message}`).join('; '), {
      errors: problems,
    });
  }
};
