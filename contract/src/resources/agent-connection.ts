import { z } from 'zod';
import { Timestamp } from '../common.js';

/**
 * How the platform reaches an agent under test in simulated calls. `openai_chat`: the agent's brain
 * behind an OpenAI-compatible chat-completions endpoint (the conversation so far is sent with
 * agent turns as `assistant` and caller turns as `user`; the greeting request carries only the
 * system prompt, or the user message `(call connected)` without one; a tool call named `end_call`
 * in the reply hangs up). `webhook`: `POST {url}` with the conversation, signed with the Standard
 * Webhooks scheme, answered `{ reply, end_call? }`.
 */
export const AGENT_CONNECTION_KINDS = ['openai_chat', 'webhook', 'twilio_media_stream'] as const;
export const AgentConnectionKindSchema = z.enum(AGENT_CONNECTION_KINDS);
export type AgentConnectionKind = z.infer<typeof AgentConnectionKindSchema>;

const HTTP_URL = z
  .string()
  .trim()
  .max(2048)
  .url()
  .refine((url) => /^https?:\/\//i.test(url), 'Expected an http or https URL');
const HEADER_NAME = z
  .string()
  .trim()
  .regex(/^[A-Za-z0-9!#$%&'*+.^_`|~-]{1,128}$/, 'Expected an HTTP header name');
const SECRET = z.string().trim().min(1).max(4096);
/** A Standard Webhooks signing secret: `whsec_` and the base64 of 24 to 64 random bytes. */
export const WEBHOOK_SECRET = z
  .string()
  .trim()
  .regex(/^whsec_[A-Za-z0-9+/]{32,88}={0,2}$/, 'Expected whsec_ followed by base64 (24 to 64 bytes)');

/** An `openai_chat` connection as answered: the key is write-only (`has_api_key`). */
export const OpenAiChatConnectionSchema = z.object({
  kind: z.literal('openai_chat'),
  /** Base URL of the OpenAI-compatible API, up to `/v1` (`/chat/completions` is appended). */
  base_url: z.string(),
  model: z.string(),
  has_api_key: z.boolean(),
  /** Sent as the first `system` message, when set. */
  system_prompt: z.string().nullable(),
  /** Header names sent with every request; their values are write-only. */
  extra_header_names: z.array(z.string()),
});

/** A `webhook` connection as answered: the signing secret is write-only (`has_secret`). */
export const WebhookConnectionSchema = z.object({
  kind: z.literal('webhook'),
  url: z.string(),
  has_secret: z.boolean(),
});

/**
 * A `twilio_media_stream` connection as answered: the platform plays Twilio's side of a
 * bidirectional Media Stream over a WebSocket to `url` (the voice channel). The auth
 * header value is write-only (`has_auth_header`).
 */
export const TwilioMediaStreamConnectionSchema = z.object({
  kind: z.literal('twilio_media_stream'),
  url: z.string(),
  /** Sent in the `start` message's `customParameters`, as Twilio's `<Parameter>`s are. */
  custom_parameters: z.record(z.string(), z.string()),
  has_auth_header: z.boolean(),
});

/** An agent's connection as answered; secrets are never returned. */
export const AgentConnectionSchema = z.discriminatedUnion('kind', [
  OpenAiChatConnectionSchema,
  WebhookConnectionSchema,
  TwilioMediaStreamConnectionSchema,
]);
export type AgentConnection = z.infer<typeof AgentConnectionSchema>;

/**
 * Write an `openai_chat` connection. On update of an `openai_chat` connection, an omitted
 * `api_key` keeps the stored key and null removes it; `extra_headers` replaces the stored headers
 * when given and keeps them when omitted; an omitted `system_prompt` keeps the stored one.
 */
export const OpenAiChatConnectionWriteSchema = z
  .object({
    kind: z.literal('openai_chat'),
    base_url: HTTP_URL,
    model: z.string().trim().min(1).max(200),
    api_key: SECRET.nullable().optional(),
    system_prompt: z.string().max(20_000).nullable().optional(),
    extra_headers: z.record(HEADER_NAME, z.string().max(4096)).optional(),
  })
  .strict();

/**
 * Write a `webhook` connection. `secret` (a Standard Webhooks `whsec_…` secret) is required the
 * first time a webhook connection is set; omitted on update, the stored one is kept.
 */
export const WebhookConnectionWriteSchema = z
  .object({ kind: z.literal('webhook'), url: HTTP_URL, secret: WEBHOOK_SECRET.optional() })
  .strict();

const WS_URL = z
  .string()
  .trim()
  .max(2048)
  .url()
  .refine((url) => /^wss?:\/\//i.test(url), 'Expected a ws or wss URL');

/**
 * Write a `twilio_media_stream` connection. `auth_header` is sent as the `Authorization` header of
 * the WebSocket upgrade (write-only; omitted on update keeps the stored one, null removes it).
 */
export const TwilioMediaStreamConnectionWriteSchema = z
  .object({
    kind: z.literal('twilio_media_stream'),
    url: WS_URL,
    custom_parameters: z
      .record(z.string().trim().min(1).max(128), z.string().max(1024))
      .refine((params) => Object.keys(params).length <= 20, 'At most 20 custom parameters')
      .optional(),
    auth_header: SECRET.nullable().optional(),
  })
  .strict();

/** The `connection` of an agent create or update body; null removes the connection. */
export const AgentConnectionWriteSchema = z.discriminatedUnion('kind', [
  OpenAiChatConnectionWriteSchema,
  WebhookConnectionWriteSchema,
  TwilioMediaStreamConnectionWriteSchema,
]);
export type AgentConnectionWrite = z.infer<typeof AgentConnectionWriteSchema>;

/** Why reaching an agent failed (on a test, or on a simulated call's row). */
export const AGENT_ERROR_CODES = [
  /** The address was refused, the connection failed, or the agent answered a non-2xx status. */
  'agent_unreachable',
  /** No answer within the per-turn timeout (on the voice channel: the socket stayed silent). */
  'agent_timeout',
  /** An answer that is not the protocol's reply (no text, wrong JSON). */
  'agent_invalid_response',
] as const;
export const AgentErrorCodeSchema = z.enum(AGENT_ERROR_CODES);
export type AgentErrorCode = z.infer<typeof AgentErrorCodeSchema>;

/**
 * Result of `POST /agents/{id}/test`: one greeting round trip (the agent speaks first, with an
 * empty conversation). A failure is a 200 with `ok: false` and a typed `error`.
 */
export const AgentTestResultSchema = z.object({
  ok: z.boolean(),
  kind: AgentConnectionKindSchema,
  /** The agent's greeting; null when the test failed. */
  greeting: z.string().nullable(),
  /** Round trip of the greeting request, in milliseconds. */
  latency_ms: z.number().int().min(0),
  error: z.object({ code: AgentErrorCodeSchema, message: z.string() }).nullable(),
  tested_at: Timestamp,
});
export type AgentTestResult = z.infer<typeof AgentTestResultSchema>;
