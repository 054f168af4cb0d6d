import { z } from 'zod';
import { qBool, RoleSchema, Timestamp, Uuid } from '../common.js';
import { InvitationStatusSchema } from './invitation.js';
import { WorkspaceSchema } from './workspace.js';

/** A password: 8 to 256 characters, compared as given (no trimming). */
export const PasswordSchema = z.string().min(8).max(256);

const EMAIL = z.string().trim().email().max(320);

// ---------------------------------------------------------------------------
// Users and sessions
// ---------------------------------------------------------------------------

/**
 * The signed-in user as seen from one organization: `organization_id` and `role` come from the
 * session's membership. `email_is_placeholder` marks a generated address the user has not replaced.
 */
export const UserSchema = z.object({
  id: Uuid,
  email: z.string(),
  name: z.string(),
  first_name: z.string(),
  last_name: z.string(),
  organization_id: Uuid,
  role: RoleSchema,
  has_password: z.boolean(),
  email_is_placeholder: z.boolean(),
});
export type User = z.infer<typeof UserSchema>;

/**
 * A bearer session bound to one organization. `expires_in` is the access token's lifetime in
 * seconds; the refresh token rotates on every refresh.
 */
export const SessionSchema = z.object({
  access_token: z.string(),
  refresh_token: z.string(),
  token_type: z.literal('Bearer'),
  expires_in: z.number().int().positive(),
  user: UserSchema,
});
export type Session = z.infer<typeof SessionSchema>;

/** Login; with several memberships, `organization_id` picks the organization (else the oldest membership). */
export const LoginBodySchema = z.object({
  email: EMAIL,
  password: PasswordSchema,
  organization_id: Uuid.optional(),
});
export type LoginBody = z.infer<typeof LoginBodySchema>;

/** Signup creates the user, an organization (named `organization_name`, else after the user), its default workspace and an OWNER membership. */
export const SignupBodySchema = z.object({
  email: EMAIL,
  password: PasswordSchema,
  name: z.string().trim().min(1).max(200).optional(),
  organization_name: z.string().trim().min(1).max(200).optional(),
});
export type SignupBody = z.infer<typeof SignupBodySchema>;

/**
 * Refresh rotates the token; presenting an already-used refresh token revokes its whole family.
 * `refresh_token` may be left out when the server sets the refresh cookie and the request carries it.
 */
export const RefreshBodySchema = z.object({
  refresh_token: z.string().min(1).max(2048).optional(),
});
export type RefreshBody = z.infer<typeof RefreshBodySchema>;

/** Logout revokes the refresh token's whole family; the refresh token itself is the credential. */
export const LogoutBodySchema = RefreshBodySchema;
export type LogoutBody = z.infer<typeof LogoutBodySchema>;

/**
 * Switch the session to another organization the user is an active member of. API-key callers get
 * 403 `interactive_user_required`; an organization without an active membership answers 404.
 */
export const SwitchOrgBodySchema = z.object({
  organization_id: Uuid,
});
export type SwitchOrgBody = z.infer<typeof SwitchOrgBodySchema>;

// ---------------------------------------------------------------------------
// Public configuration and invitation preview
// ---------------------------------------------------------------------------

/** An SSO provider a login page may offer; `login_url` starts its browser flow. */
export const SsoProviderSchema = z.object({
  id: z.string(),
  name: z.string(),
  login_url: z.string(),
});
export type SsoProvider = z.infer<typeof SsoProviderSchema>;

/** What a login page needs to know; `api_key_headers` are the lower-case header names that carry an API key. */
export const AuthConfigSchema = z.object({
  signup_enabled: z.boolean(),
  password_login_enabled: z.boolean(),
  sso_providers: z.array(SsoProviderSchema),
  access_token_ttl_seconds: z.number().int().positive(),
  api_key_headers: z.array(z.string()),
});
export type AuthConfig = z.infer<typeof AuthConfigSchema>;

/** What an invitee sees before accepting. Unknown, revoked and expired tokens answer 404. */
export const InvitationPreviewSchema = z.object({
  organization_id: Uuid,
  organization_name: z.string(),
  email: z.string(),
  role: RoleSchema,
  expires_at: Timestamp,
  status: InvitationStatusSchema,
});
export type InvitationPreview = z.infer<typeof InvitationPreviewSchema>;

// ---------------------------------------------------------------------------
// API keys
// ---------------------------------------------------------------------------

/** Generate-key body; `name` defaults to `API key`. Only interactive users (not API keys) may generate keys. */
export const GenerateKeyBodySchema = z.object({
  name: z.string().trim().min(1).max(100).optional(),
});
export type GenerateKeyBody = z.infer<typeof GenerateKeyBodySchema>;

/** A newly generated organization API key. `key` (`ve_live_...`) is shown only here; it is stored as a hash. */
export const ApiKeyCreatedSchema = z.object({
  id: Uuid,
  name: z.string(),
  key: z.string(),
  prefix: z.string(),
  created_at: Timestamp,
});
export type ApiKeyCreated = z.infer<typeof ApiKeyCreatedSchema>;

/** An organization API key as listed: never the key itself. `created_by` is the generating user's id. */
export const ApiKeySchema = z.object({
  id: Uuid,
  name: z.string(),
  prefix: z.string(),
  created_at: Timestamp,
  last_used_at: Timestamp.nullable(),
  revoked_at: Timestamp.nullable(),
  created_by: z.string(),
});
export type ApiKey = z.infer<typeof ApiKeySchema>;

/** API key list filter: revoked keys are hidden unless `include_revoked` is `true`. */
export const ApiKeyListQuerySchema = z.object({
  include_revoked: qBool.default('false'),
});

// ---------------------------------------------------------------------------
// Who am I
// ---------------------------------------------------------------------------

/** Organization plans: ambient audio and other enterprise features need `enterprise`. */
export const ORGANIZATION_PLANS = ['free', 'enterprise'] as const;
export const OrganizationPlanSchema = z.enum(ORGANIZATION_PLANS);
export type OrganizationPlan = z.infer<typeof OrganizationPlanSchema>;

/** The organization a request acts in. */
export const OrganizationSummarySchema = z.object({
  id: Uuid,
  name: z.string(),
  plan: OrganizationPlanSchema,
});
export type OrganizationSummary = z.infer<typeof OrganizationSummarySchema>;

/** One of the user's active memberships, for an organization switcher. */
export const MembershipSchema = z.object({
  organization_id: Uuid,
  organization_name: z.string(),
  plan: OrganizationPlanSchema,
  role: RoleSchema,
});
export type Membership = z.infer<typeof MembershipSchema>;

/** `user` for bearer sessions, `api_key` for organization API keys. */
export const PRINCIPAL_TYPES = ['user', 'api_key'] as const;
export const PrincipalTypeSchema = z.enum(PRINCIPAL_TYPES);

/**
 * The caller's identity and context. `user` and `memberships` are set for bearer sessions (null
 * and empty for API keys); `api_key` is set for API keys; `workspace` is the one this request is
 * scoped to (`X-Workspace-Id` or the organization's default); `role` is the effective role.
 */
export const MeSchema = z.object({
  principal_type: PrincipalTypeSchema,
  user: UserSchema.nullable(),
  api_key: ApiKeySchema.pick({ id: true, name: true, prefix: true }).nullable(),
  role: RoleSchema,
  organization: OrganizationSummarySchema,
  workspace: WorkspaceSchema,
  memberships: z.array(MembershipSchema),
});
export type Me = z.infer<typeof MeSchema>;
