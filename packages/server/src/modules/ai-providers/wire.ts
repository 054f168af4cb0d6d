import type { AIProvider, EffectiveRouting, GatewayInterface } from '@voice-eval/contract';
import { iso, isoOrNull } from '../../db/rows.js';
import type { Deps } from '../../deps.js';
import type { AiProviderRecord } from '../../providers/index.js';
import type { AiProviderRow } from './repo.js';

/** The additional authenticated data secrets of a credential are sealed with (binds them to the organization). */
export const secretContext = (organizationId: string, column: 'api_key' | 'gateway_auth_secret') =>
  `ai_providers.${column}:${organizationId}`;

/**
 * The answer-safe form of a secret: its first 3 and last 4 characters for keys of 20 characters
 * or more (`sk-...abcd`), the last 2 for shorter ones, nothing for very short ones. Computed once
 * at write time and stored, so reads never decrypt.
 */
export const maskSecret = (secret: string): string => {
  if (secret.length >= 20) return `${secret.slice(0, 3)}...${secret.slice(-4)}`;
  if (secret.length >= 10) return `...${secret.slice(-2)}`;
  return '****';
};

/** Stands in for a stored secret when only its presence matters (routing flags); never sent anywhere. */
const STORED_SECRET = '[stored]';

const opened = (
  deps: Pick<Deps, 'secrets'>,
  row: AiProviderRow,
  column: 'api_key' | 'gateway_auth_secret',
) => {
  const sealed = column === 'api_key' ? row.api_key_sealed : row.gateway_auth_secret_sealed;
  return sealed ? deps.secrets.open(sealed, secretContext(row.organization_id, column)) : null;
};

/**
 * The row as the gateway takes it. With `withSecrets` the secrets are decrypted (for calls);
 * without, they are left out, or only marked present (for routing flags).
 */
export const toRecord = (
  deps: Pick<Deps, 'secrets'>,
  row: AiProviderRow,
  withSecrets = false,
): AiProviderRecord => ({
  id: row.id,
  name: row.name,
  provider: row.provider,
  endpoint_url: row.endpoint_url,
  api_key: withSecrets ? opened(deps, row, 'api_key') : null,
  gateway_auth_secret: withSecrets
    ? opened(deps, row, 'gateway_auth_secret')
    : row.gateway_auth_secret_sealed && STORED_SECRET,
  routing_mode: row.routing_mode,
  gateway_model: row.gateway_model,
  gateway_interface: row.gateway_interface,
  gateway_base_url: row.gateway_base_url,
  gateway_auth_header: row.gateway_auth_header,
  gateway_auth_secret_env: row.gateway_auth_secret_env,
  gateway_extra_headers: row.gateway_extra_headers,
  enabled_models: row.enabled_models,
  is_active: row.is_active,
  is_default: row.is_default,
});

/** `effective_routing`, `effective_gateway_interface` and `has_gateway_auth_secret`, as the gateway resolves them. */
export const routingOf = (deps: Pick<Deps, 'secrets' | 'providers'>, row: AiProviderRow) => {
  const resolved = deps.providers.routingOf(toRecord(deps, row));
  return {
    effective_routing: resolved.effective_routing as EffectiveRouting,
    effective_gateway_interface: resolved.effective_gateway_interface as GatewayInterface,
    has_gateway_auth_secret: resolved.has_gateway_auth_secret,
  };
};

/** The wire form: secrets masked (`api_key`) or reduced to a flag (`has_gateway_auth_secret`). */
export const toAiProvider = (deps: Pick<Deps, 'secrets' | 'providers'>, row: AiProviderRow): AIProvider => {
  const routing = routingOf(deps, row);
  return {
    id: row.id,
    provider: row.provider,
    api_key: row.api_key_hint,
    name: row.name,
    endpoint_url: row.endpoint_url,
    is_active: row.is_active,
    is_default: row.is_default,
    routing_mode: row.routing_mode as AIProvider['routing_mode'],
    gateway_model: row.gateway_model,
    gateway_interface: row.gateway_interface as AIProvider['gateway_interface'],
    gateway_base_url: row.gateway_base_url,
    gateway_auth_header: row.gateway_auth_header,
    gateway_auth_secret_env: row.gateway_auth_secret_env,
    has_gateway_auth_secret: routing.has_gateway_auth_secret,
    gateway_extra_headers: row.gateway_extra_headers,
    enabled_models: row.enabled_models,
    gateway_managed: row.api_key_sealed === null && routing.effective_routing === 'gateway',
    effective_routing: routing.effective_routing,
    effective_gateway_interface: routing.effective_gateway_interface,
    created_at: iso(row.created_at),
    updated_at: iso(row.updated_at),
    last_tested_at: isoOrNull(row.last_tested_at),
  };
};
