import { type EffectiveRouting, GATEWAY_INTERFACES, type GatewayInterface } from '@voice-eval/contract';

/**
 * How an organization's AIProvider row is reached: directly (`endpoint_url`, `api_key` as a
 * Bearer token) or through a gateway (`gateway_base_url`, a secret read from the server's
 * environment, extra headers). {@link resolveRouting} is the one place `effective_routing`,
 * `effective_gateway_interface` and `has_gateway_auth_secret` are computed.
 */

/** Values of `routing_mode`. `inherit` means gateway when a gateway base URL is set, else direct (effective `inherit`). */
export const ROUTING_MODES = ['inherit', 'direct', 'gateway'] as const;

/**
 * Gateway interfaces the adapters speak (the contract's values; both are OpenAI-compatible chat
 * completions). `inherit` resolves to {@link DEFAULT_GATEWAY_INTERFACE}.
 */
export const SUPPORTED_GATEWAY_INTERFACES = GATEWAY_INTERFACES;

/** What `gateway_interface: inherit` resolves to: a LiteLLM-style shim. */
export const DEFAULT_GATEWAY_INTERFACE: GatewayInterface = 'litellm_shim';

/** The fields of an AIProvider row the gateway needs, `api_key` already decrypted. */
export interface AiProviderRecord {
  id?: string;
  name?: string;
  /** The vendor: `openai`, `groq`, `openrouter`, `together`, `mistral`, `google`, `vllm`, ... */
  provider: string;
  endpoint_url?: string | null;
  api_key?: string | null;
  routing_mode?: string | null;
  gateway_model?: string | null;
  gateway_interface?: string | null;
  gateway_base_url?: string | null;
  /** The header carrying the gateway secret. @default `Authorization` */
  gateway_auth_header?: string | null;
  /** The name of the server environment variable holding the gateway secret; it wins over a stored secret. */
  gateway_auth_secret_env?: string | null;
  /** The gateway secret stored (encrypted) on the row, already decrypted. */
  gateway_auth_secret?: string | null;
  gateway_extra_headers?: Record<string, string> | null;
  /** Model names, plus capability entries (`audio:`, `stt:`, `tts:<model>`; see capabilities.ts). */
  enabled_models?: readonly string[] | null;
  is_active: boolean;
  is_default: boolean;
}

/** Whether the gateway secret could be read: `present` is `has_gateway_auth_secret`. */
export type GatewaySecretStatus = 'not_configured' | 'present' | 'missing' | 'not_allowed';

/** The routing of one AIProvider row, ready for an adapter. Holds credentials: never log it. */
export interface ResolvedRouting {
  /** `inherit`: the row inherits and no gateway is configured, so calls go direct. */
  effective_routing: EffectiveRouting;
  /** One of {@link SUPPORTED_GATEWAY_INTERFACES}, or an unsupported value the row names. */
  effective_gateway_interface: string;
  has_gateway_auth_secret: boolean;
  gateway_auth_secret_status: GatewaySecretStatus;
  /** The OpenAI-compatible base URL (ending in `/v1` or similar), or null when none is known. */
  base_url: string | null;
  /** Headers for every request: auth and, through a gateway, the extra headers. */
  headers: Record<string, string>;
  /** The credential strings in `headers`, to mask wherever provider text is logged. */
  secrets: string[];
}

/** Options of {@link resolveRouting}. */
export interface RoutingOptions {
  /** Where gateway secrets are read. @default process.env */
  env?: Readonly<Record<string, string | undefined>>;
  /**
   * Which environment variables a row may name as its gateway secret, so that an organization
   * admin cannot make the server send, say, `DATABASE_URL` to a URL of their choosing.
   * @default names starting with `VOICE_EVAL_GATEWAY_`
   */
  isSecretEnvAllowed?: (name: string) => boolean;
}

const DEFAULT_BASE_URLS: Readonly<Record<string, string>> = {
  openai: 'https://api.openai.com/v1',
  groq: 'https://api.groq.com/openai/v1',
  openrouter: 'https://openrouter.ai/api/v1',
  together: 'https://api.together.xyz/v1',
  mistral: 'https://api.mistral.ai/v1',
  google: 'https://generativelanguage.googleapis.com/v1beta/openai',
  gemini: 'https://generativelanguage.googleapis.com/v1beta/openai',
};

const nonEmpty = (value: string | null | undefined): string | null => {
  const trimmed = value?.trim();
  return trimmed ? trimmed : null;
};

const defaultSecretEnvAllowed = (name: string): boolean => /^VOICE_EVAL_GATEWAY_[A-Z0-9_]+$/.test(name);

function effectiveRouting(record: AiProviderRecord): EffectiveRouting {
  const mode = record.routing_mode?.trim().toLowerCase();
  if (mode === 'direct' || mode === 'gateway') return mode;
  return nonEmpty(record.gateway_base_url) ? 'gateway' : 'inherit';
}

function readGatewaySecret(
  record: AiProviderRecord,
  options: RoutingOptions,
): { status: GatewaySecretStatus; secret: string | null } {
  const name = nonEmpty(record.gateway_auth_secret_env);
  const stored = nonEmpty(record.gateway_auth_secret);
  if (!name)
    return stored ? { status: 'present', secret: stored } : { status: 'not_configured', secret: null };
  if (!(options.isSecretEnvAllowed ?? defaultSecretEnvAllowed)(name))
    return { status: 'not_allowed', secret: null };
  const secret = nonEmpty((options.env ?? process.env)[name]);
  return secret ? { status: 'present', secret } : { status: 'missing', secret: null };
}

function bearer(token: string): string {
  return /^(bearer|basic|token)\s/i.test(token) ? token : `Bearer ${token}`;
}

function gatewayHeaders(record: AiProviderRecord, secret: string | null): Record<string, string> {
  const headers: Record<string, string> = { ...(record.gateway_extra_headers ?? {}) };
  const apiKey = nonEmpty(record.api_key);
  if (secret) {
    const name = nonEmpty(record.gateway_auth_header) ?? 'Authorization';
    headers[name] = name.toLowerCase() === 'authorization' ? bearer(secret) : secret;
  } else if (apiKey) {
    headers.Authorization = bearer(apiKey);
  }
  return headers;
}

/**
 * Resolves a row's routing. Direct (and `inherit` without a gateway): `endpoint_url` (or the
 * vendor's public URL for well-known providers) with `api_key` as a Bearer token. Gateway:
 * `gateway_base_url`, the secret from the environment variable named by
 * `gateway_auth_secret_env` (else the row's stored `gateway_auth_secret`) under
 * `gateway_auth_header` (Bearer when that header is `Authorization`; the row's `api_key` as a
 * Bearer token when no secret is configured), plus `gateway_extra_headers`.
 */
export function resolveRouting(record: AiProviderRecord, options: RoutingOptions = {}): ResolvedRouting {
  const routing = effectiveRouting(record);
  const requested = record.gateway_interface?.trim().toLowerCase();
  const effectiveInterface = requested && requested !== 'inherit' ? requested : DEFAULT_GATEWAY_INTERFACE;
  const { status, secret } = readGatewaySecret(record, options);
  const common = {
    effective_routing: routing,
    effective_gateway_interface: effectiveInterface,
    has_gateway_auth_secret: status === 'present',
    gateway_auth_secret_status: status,
  };
  const apiKey = nonEmpty(record.api_key);
  const secrets = [secret, apiKey].filter((value): value is string => value !== null);
  if (routing === 'gateway') {
    const headers = gatewayHeaders(record, secret);
    return { ...common, base_url: nonEmpty(record.gateway_base_url), headers, secrets };
  }
  const baseUrl =
    nonEmpty(record.endpoint_url) ?? DEFAULT_BASE_URLS[record.provider.trim().toLowerCase()] ?? null;
  return { ...common, base_url: baseUrl, headers: apiKey ? { Authorization: bearer(apiKey) } : {}, secrets };
}
