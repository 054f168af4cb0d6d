import { z } from 'zod';
import { RoleSchema, Timestamp, Uuid } from '../common.js';

/**
 * `pending` until accepted, revoked or past `expires_at`. Creating a new invitation for the same
 * e-mail revokes the earlier pending one.
 */
export const INVITATION_STATUSES = ['pending', 'accepted', 'revoked', 'expired'] as const;
export const InvitationStatusSchema = z.enum(INVITATION_STATUSES);
export type InvitationStatus = z.infer<typeof InvitationStatusSchema>;

/** Roles an invitation may grant: ownership is never handed out by invitation. */
export const INVITABLE_ROLES = ['ADMIN', 'MEMBER', 'READER'] as const;
export const InvitableRoleSchema = z.enum(INVITABLE_ROLES);

/** How long an invitation stays acceptable, in seconds (7 days). */
export const INVITATION_TTL_SECONDS = 7 * 24 * 60 * 60;

/** An invitation to join an organization with a role. `invited_by` is the inviting user's id. */
export const InvitationSchema = z.object({
  id: Uuid,
  organization_id: Uuid,
  email: z.string(),
  role: RoleSchema,
  status: InvitationStatusSchema,
  expires_at: Timestamp,
  accepted_at: Timestamp.nullable(),
  invited_by: z.string(),
  created_at: Timestamp,
  updated_at: Timestamp,
});
export type Invitation = z.infer<typeof InvitationSchema>;

/**
 * The create response: the invitation plus its one-time `token`, shown only here and stored as a
 * hash. The service sends no e-mail; deliver the token (typically as a link) to the invitee.
 */
export const InvitationCreatedSchema = InvitationSchema.extend({
  token: z.string(),
});
export type InvitationCreated = z.infer<typeof InvitationCreatedSchema>;

/** Create body; inviting an e-mail that already belongs to a member of the organization answers 409. */
export const InvitationCreateBodySchema = z.object({
  email: z.string().trim().email().max(320),
  role: InvitableRoleSchema,
});
export type InvitationCreateBody = z.infer<typeof InvitationCreateBodySchema>;

/**
 * Accept body (public route). With no account for the invited e-mail, `password` is required and a
 * user is created (with `name` if given). With an existing account that has a password, `password`
 * must match it (401 otherwise); an account without a password is joined on the token alone.
 */
export const InvitationAcceptBodySchema = z.object({
  token: z.string().min(1).max(512),
  password: z.string().min(8).max(256).optional(),
  name: z.string().trim().min(1).max(200).optional(),
});
export type InvitationAcceptBody = z.infer<typeof InvitationAcceptBodySchema>;
