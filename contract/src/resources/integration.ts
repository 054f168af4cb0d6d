import { z } from 'zod';
import { qBool, Timestamp, Uuid } from '../common.js';
import { EffectiveRoutingSchema, RoutingModeSchema } from './ai-provider.js';

/**
 * Voice-agent platforms an integration may connect (their calls and recordings); the field
 * stays a string so new platforms need no contract change.
 */
export const KNOWN_INTEGRATION_PLATFORMS = [
  'vapi',
  'retell',
  'elevenlabs',
  'bland',
  'livekit',
  'twilio',
] as const;

/**
 * An organization's stored credential for a voice-agent or telephony platform. The secret key
 * is write-only (stored encrypted, never returned); `public_key` is not a secret and is echoed.
 */
export const IntegrationSchema = z.object({
  id: Uuid,
  organization_id: Uuid,
  /** Platform identifier, lower-case (see `KNOWN_INTEGRATION_PLATFORMS`). */
  platform: z.string(),
  name: z.string(),
  /** The platform's public (publishable) key; null when the platform has none. */
  public_key: z.string().nullable(),
  is_active: z.boolean(),
  /** The organization's default integration for this platform (one per platform). */
  is_default: z.boolean(),
  /** Routing of LLM calls made on behalf of this integration; see AIProvider routing. */
  routing_mode: RoutingModeSchema,
  effective_routing: EffectiveRoutingSchema,
  created_at: Timestamp,
  updated_at: Timestamp,
  /** Null until the integration's credentials are verified. */
  last_tested_at: Timestamp.nullable(),
  /** The agent whose production calls this integration delivers; pushes are refused without one. */
  agent_id: Uuid.nullable(),
  /**
   * The URL to give the platform as its webhook (`/api/v1/ingest/{platform}/{id}` under the
   * server's public URL); null for platforms that do not push calls here.
   */
  ingest_url: z.string().nullable(),
  /** When the platform last delivered a call that verified; null before the first. */
  last_received_at: Timestamp.nullable(),
  /**
   * When voice-eval last listed the platform's recent calls to land those whose webhook never
   * arrived (reconciliation); null before the first poll, and for integrations that are not polled.
   */
  last_polled_at: Timestamp.nullable(),
  /**
   * Why the last poll of the platform's calls failed (`unauthorized`, `platform_error`,
   * `unreachable`); null after a poll that succeeded.
   */
  last_poll_error: z.object({ code: z.string(), message: z.string(), at: Timestamp }).nullable(),
  /**
   * Whether an API key is stored besides the secret (ElevenLabs only, whose webhook secret does not
   * open its API): with it, voice-eval lists the conversations whose webhook never arrived and
   * fetches recordings from ElevenLabs' audio API. Write-only, like the secret.
   */
  has_api_key: z.boolean(),
  /**
   * Vapi only, and only in the answer that creates the integration or rotates the token: the token
   * Vapi must send back (`X-Vapi-Secret`, or `Authorization: Bearer`). It is stored hashed and never
   * shown again.
   */
  ingest_token: z.string().optional(),
});
export type Integration = z.infer<typeof IntegrationSchema>;

const NAME = z.string().trim().min(1).max(200);
const SECRET = z.string().trim().min(1).max(4096);

/** Create an integration: `platform`, `name` and the write-only `secret_key` are required. */
export const IntegrationCreateBodySchema = z.object({
  platform: z
    .string()
    .trim()
    .toLowerCase()
    .regex(/^[a-z0-9][a-z0-9_.-]{0,63}$/, 'Expected a lower-case platform identifier'),
  name: NAME,
  /** Write-only platform secret; stored encrypted and never returned. */
  secret_key: SECRET,
  /**
   * ElevenLabs only: an API key (`xi-api-key`) that may read conversations, besides the webhook's
   * signing secret in `secret_key`. Write-only; stored encrypted and never returned.
   */
  api_key: SECRET.nullable().optional(),
  public_key: z.string().trim().min(1).max(4096).nullable().optional(),
  is_active: z.boolean().optional(),
  is_default: z.boolean().optional(),
  routing_mode: RoutingModeSchema.optional(),
  /** The agent (of any workspace of the organization) whose calls the platform delivers. */
  agent_id: Uuid.nullable().optional(),
});
export type IntegrationCreateBody = z.infer<typeof IntegrationCreateBodySchema>;

/** Update: every field optional; `platform` is fixed at creation; `secret_key` replaces the secret. */
export const IntegrationUpdateBodySchema = z
  .object({
    name: NAME,
    secret_key: SECRET,
    /** ElevenLabs: replaces the API key; null removes it. */
    api_key: SECRET.nullable(),
    public_key: z.string().trim().min(1).max(4096).nullable(),
    is_active: z.boolean(),
    is_default: z.boolean(),
    routing_mode: RoutingModeSchema,
    agent_id: Uuid.nullable(),
    /** Vapi: replace the ingest token; the answer carries the new one, once. */
    rotate_ingest_token: z.literal(true),
  })
  .partial();
export type IntegrationUpdateBody = z.infer<typeof IntegrationUpdateBodySchema>;

export const IntegrationListQuerySchema = z.object({
  platform: z.string().max(64).optional(),
  is_active: qBool.optional(),
});

/** Why testing an integration's credentials failed. */
export const INTEGRATION_TEST_ERROR_CODES = [
  'unauthorized',
  'unreachable',
  'platform_error',
  'not_testable',
] as const;

/**
 * Result of testing an integration: one authenticated list call to the platform's API (Vapi's
 * calls, Retell's calls, Twilio's account, ElevenLabs' conversations with the API key). A failure is reported here, not as an HTTP error.
 */
export const IntegrationTestResultSchema = z.object({
  ok: z.boolean(),
  /** Round-trip time of the call, in milliseconds (0 when nothing was sent). */
  latency_ms: z.number().int().min(0),
  error: z.object({ code: z.enum(INTEGRATION_TEST_ERROR_CODES), message: z.string() }).nullable(),
  tested_at: Timestamp,
});
export type IntegrationTestResult = z.infer<typeof IntegrationTestResultSchema>;
