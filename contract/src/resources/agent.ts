import { z } from 'zod';
import { Timestamp, Uuid } from '../common.js';
import { AgentConnectionSchema, AgentConnectionWriteSchema } from './agent-connection.js';

/** Who starts the call: the agent answers (`inbound`) or places it (`outbound`). */
export const AGENT_CALL_TYPES = ['inbound', 'outbound'] as const;
export const AgentCallTypeSchema = z.enum(AGENT_CALL_TYPES);
export type AgentCallType = z.infer<typeof AgentCallTypeSchema>;

/** How the agent is reached: a phone number, a web (browser/WebRTC) session, or a SIP endpoint. */
export const AGENT_CALL_MEDIUMS = ['phone', 'web', 'sip'] as const;
export const AgentCallMediumSchema = z.enum(AGENT_CALL_MEDIUMS);
export type AgentCallMedium = z.infer<typeof AgentCallMediumSchema>;

/** A voice agent under test, in a workspace. Evaluators pair it with scenarios and personas. */
export const AgentSchema = z.object({
  id: Uuid,
  organization_id: Uuid,
  workspace_id: Uuid,
  name: z.string(),
  description: z.string(),
  call_type: AgentCallTypeSchema,
  call_medium: AgentCallMediumSchema,
  /** E.164 number (`phone`) or SIP URI (`sip`) the agent is reached at; null when not set. */
  phone_number: z.string().nullable(),
  /** The voice bundle the agent runs on, when it is built on one. */
  voice_bundle_id: Uuid.nullable(),
  /** How simulated calls reach the agent; null until one is set (runs need it). */
  connection: AgentConnectionSchema.nullable(),
  created_at: Timestamp,
  updated_at: Timestamp,
  created_by: z.string(),
});
export type Agent = z.infer<typeof AgentSchema>;

const writableFields = {
  name: z.string().trim().min(1).max(200),
  description: z.string().max(10_000),
  call_type: AgentCallTypeSchema,
  call_medium: AgentCallMediumSchema,
  phone_number: z.string().trim().min(1).max(255).nullable(),
  /** A complete voice bundle of the workspace (`missing_fields` empty); an incomplete one is 422 `rule_violation`. */
  voice_bundle_id: Uuid.nullable(),
  /** Secrets in it are write-only (stored encrypted); null removes the connection. */
  connection: AgentConnectionWriteSchema.nullable(),
};

/** Create an agent: `name`, `call_type` and `call_medium` required. */
export const AgentCreateBodySchema = z
  .object(writableFields)
  .partial()
  .required({ name: true, call_type: true, call_medium: true });
export type AgentCreateBody = z.infer<typeof AgentCreateBodySchema>;

export const AgentUpdateBodySchema = z.object(writableFields).partial();
export type AgentUpdateBody = z.infer<typeof AgentUpdateBodySchema>;

export const AgentListQuerySchema = z.object({
  /** Case-insensitive substring of the name. */
  q: z.string().max(200).optional(),
  call_type: AgentCallTypeSchema.optional(),
  call_medium: AgentCallMediumSchema.optional(),
});
