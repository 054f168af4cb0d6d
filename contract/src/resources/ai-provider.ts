import { z } from 'zod';
import { qBool, StringMap, Timestamp, Uuid } from '../common.js';

/**
 * How an organization credential routes LLM calls: `inherit` follows the server's gateway
 * configuration, `direct` always calls the provider with the stored key, `gateway` always goes
 * through an OpenAI-compatible gateway (LiteLLM-style).
 */
export const ROUTING_MODES = ['inherit', 'direct', 'gateway'] as const;
export const RoutingModeSchema = z.enum(ROUTING_MODES);
export type RoutingMode = z.infer<typeof RoutingModeSchema>;

/**
 * The routing a credential resolves to: `direct` or `gateway`; `inherit` when the credential
 * inherits and the server configures no gateway, so calls go direct until one is configured.
 */
export const EFFECTIVE_ROUTINGS = ['inherit', 'direct', 'gateway'] as const;
export const EffectiveRoutingSchema = z.enum(EFFECTIVE_ROUTINGS);
export type EffectiveRouting = z.infer<typeof EffectiveRoutingSchema>;

/**
 * The API a gateway exposes. `litellm_shim`: a LiteLLM-style proxy that takes provider-prefixed
 * model names (`openai/gpt-4o-mini`); `native_openai`: a plain OpenAI-compatible `/v1` API that
 * takes model names as-is. Both speak chat completions.
 */
export const GATEWAY_INTERFACES = ['litellm_shim', 'native_openai'] as const;
export const GatewayInterfaceSchema = z.enum(GATEWAY_INTERFACES);
export type GatewayInterface = z.infer<typeof GatewayInterfaceSchema>;

/** A credential's gateway interface setting: one of the interfaces, or `inherit` (server default). */
export const GATEWAY_INTERFACE_SETTINGS = ['inherit', ...GATEWAY_INTERFACES] as const;
export const GatewayInterfaceSettingSchema = z.enum(GATEWAY_INTERFACE_SETTINGS);

/**
 * Provider identifiers the server has adapters for (all OpenAI-compatible wire protocols); the
 * field stays a string so new providers need no contract change.
 */
export const KNOWN_AI_PROVIDERS = [
  'openai',
  'groq',
  'openrouter',
  'together',
  'vllm',
  'ollama',
  'openai_compatible',
] as const;

/**
 * An organization's stored credential for an LLM/STT provider, with its routing settings.
 * Secrets are never returned: `api_key` is masked (`sk-...abcd`) or null when no key is stored,
 * and the gateway secret only shows as `has_gateway_auth_secret`.
 */
export const AIProviderSchema = z.object({
  id: Uuid,
  /** Provider identifier, lower-case (see `KNOWN_AI_PROVIDERS`). */
  provider: z.string(),
  /** The stored key masked to its first characters and last four (`sk-...abcd`); null when none is stored. */
  api_key: z.string().nullable(),
  name: z.string(),
  /** Base URL of the provider's API; null uses the provider's public endpoint. */
  endpoint_url: z.string().nullable(),
  is_active: z.boolean(),
  /**
   * The organization's default credential (one per organization): used when a workload names no
   * provider. Setting it on one credential clears it on the others.
   */
  is_default: z.boolean(),
  routing_mode: RoutingModeSchema,
  /** Model name to send to the gateway instead of the workload's model; null sends the workload's. */
  gateway_model: z.string().nullable(),
  gateway_interface: GatewayInterfaceSettingSchema,
  /** Gateway base URL for this credential; null uses the server's gateway. */
  gateway_base_url: z.string().nullable(),
  /** Header carrying the gateway secret (e.g. `authorization`); null uses the server's default. */
  gateway_auth_header: z.string().nullable(),
  /** Name of a server environment variable holding the gateway secret; read at call time. */
  gateway_auth_secret_env: z.string().nullable(),
  has_gateway_auth_secret: z.boolean(),
  /** Extra headers sent to the gateway on every call. */
  gateway_extra_headers: StringMap,
  /** Models this credential may be used with; empty allows any model. */
  enabled_models: z.array(z.string()),
  /** True when no provider key is stored and the gateway supplies it. */
  gateway_managed: z.boolean(),
  effective_routing: EffectiveRoutingSchema,
  /** The gateway interface calls use once `inherit` is resolved against the server configuration. */
  effective_gateway_interface: GatewayInterfaceSchema,
  created_at: Timestamp,
  updated_at: Timestamp,
  /** Null until the credential is tested. */
  last_tested_at: Timestamp.nullable(),
});
export type AIProvider = z.infer<typeof AIProviderSchema>;

const NAME = z.string().trim().min(1).max(200);
const PROVIDER_ID = z
  .string()
  .trim()
  .toLowerCase()
  .regex(/^[a-z0-9][a-z0-9_.-]{0,63}$/, 'Expected a lower-case provider identifier');
const SECRET = z.string().trim().min(1).max(4096);
const HEADER_NAME = z
  .string()
  .trim()
  .regex(/^[A-Za-z0-9!#$%&'*+.^_`|~-]{1,128}$/, 'Expected an HTTP header name');
const ENV_NAME = z.string().regex(/^[A-Za-z_][A-Za-z0-9_]{0,127}$/, 'Expected an environment variable name');

/** Settings a caller may write on create or update; secrets are write-only. */
const writableFields = {
  name: NAME,
  /** Write-only provider key; stored encrypted, answered masked. */
  api_key: SECRET,
  endpoint_url: z.string().url().max(2048).nullable(),
  is_active: z.boolean(),
  is_default: z.boolean(),
  routing_mode: RoutingModeSchema,
  gateway_model: z.string().trim().min(1).max(200).nullable(),
  gateway_interface: GatewayInterfaceSettingSchema,
  gateway_base_url: z.string().url().max(2048).nullable(),
  gateway_auth_header: HEADER_NAME.nullable(),
  /** Write-only gateway secret; stored encrypted, answered as `has_gateway_auth_secret`. */
  gateway_auth_secret: SECRET,
  gateway_auth_secret_env: ENV_NAME.nullable(),
  gateway_extra_headers: z.record(HEADER_NAME, z.string().max(4096)),
  enabled_models: z.array(z.string().trim().min(1).max(200)).max(500),
};

/**
 * Create a credential: `provider` and `name` required. `api_key` is required when routing is
 * `direct` (422 otherwise). The organization's first credential becomes its default.
 */
export const AIProviderCreateBodySchema = z
  .object({ provider: PROVIDER_ID, ...writableFields })
  .partial()
  .required({ provider: true, name: true });
export type AIProviderCreateBody = z.infer<typeof AIProviderCreateBodySchema>;

/**
 * Update: every field optional; `provider` is fixed at creation. `api_key` or
 * `gateway_auth_secret` replace the stored secret; null removes it.
 */
export const AIProviderUpdateBodySchema = z
  .object({
    ...writableFields,
    api_key: SECRET.nullable(),
    gateway_auth_secret: SECRET.nullable(),
  })
  .partial();
export type AIProviderUpdateBody = z.infer<typeof AIProviderUpdateBodySchema>;

export const AIProviderListQuerySchema = z.object({
  provider: z.string().max(64).optional(),
  is_active: qBool.optional(),
});

/** Why a credential test failed. */
export const AI_PROVIDER_TEST_ERROR_CODES = [
  'invalid_credentials',
  'endpoint_unreachable',
  'timeout',
  'rate_limited',
  'provider_error',
  'invalid_provider_response',
  'gateway_not_configured',
  /** Direct routing with no usable `endpoint_url` (none set and no public endpoint known for the provider). */
  'endpoint_not_configured',
] as const;

/**
 * Result of testing a credential against its provider (or gateway) by listing models. A failed
 * test is a 200 with `ok: false` and a typed `error`; `last_tested_at` is set either way.
 */
export const AIProviderTestResultSchema = z.object({
  ok: z.boolean(),
  /** Model ids the provider reported; empty when the test failed. */
  models: z.array(z.string()),
  /** Round-trip time of the test call, in milliseconds. */
  latency_ms: z.number().int().min(0),
  error: z
    .object({
      code: z.enum(AI_PROVIDER_TEST_ERROR_CODES),
      message: z.string(),
    })
    .nullable(),
  tested_at: Timestamp,
});
export type AIProviderTestResult = z.infer<typeof AIProviderTestResultSchema>;
