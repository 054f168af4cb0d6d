import { randomBytes } from 'node:crypto';
import {
  INVITATION_TTL_SECONDS,
  type Invitation,
  type InvitationAcceptBody,
  type InvitationCreateBody,
  type InvitationCreated,
  type InvitationPreview,
  type Session,
} from '@voice-eval/contract';
import type { RequestContext } from '../../context.js';
import { iso, isoOrNull } from '../../db/rows.js';
import type { Deps } from '../../deps.js';
import { ApiError } from '../../errors.js';
import { hashPassword, verifyPassword } from '../auth/passwords.js';
import { findAccount, isMember, joinOrganization } from '../auth/service.js';
import { sha256 } from '../auth/tokens.js';
import * as repo from './repo.js';

const statusOf = (row: repo.InvitationRow, now: Date): Invitation['status'] =>
  row.accepted_at ? 'accepted' : row.expires_at <= now ? 'expired' : 'pending';

const toInvitation = (row: repo.InvitationRow, now: Date): Invitation => ({
  id: row.id,
  organization_id: row.organization_id,
  email: row.email,
  role: row.role,
  status: statusOf(row, now),
  expires_at: iso(row.expires_at),
  accepted_at: isoOrNull(row.accepted_at),
  invited_by: row.invited_by ?? '',
  created_at: iso(row.created_at),
  updated_at: iso(row.updated_at),
});

/** Invites an e-mail (replacing its pending invitation); the token is returned once. */
export const createInvitation = async (
  deps: Deps,
  ctx: RequestContext,
  body: InvitationCreateBody,
): Promise<InvitationCreated> => {
  const now = deps.now();
  const token = `veinv_${randomBytes(24).toString('base64url')}`;
  const row = await deps.db.transaction(async (trx) => {
    if (await isMember(trx, ctx.organizationId, body.email))
      throw new ApiError('conflict', 'This e-mail already belongs to a member of the organization.');
    return repo.replacePending(trx, {
      organization_id: ctx.organizationId,
      email: body.email,
      role: body.role,
      token_hash: sha256(token),
      invited_by: ctx.principal.kind === 'user' ? ctx.principal.userId : null,
      expires_at: new Date(now.getTime() + INVITATION_TTL_SECONDS * 1000),
    });
  });
  return { ...toInvitation(row, now), token };
};

const pendingByToken = async (deps: Deps, token: string) => {
  const row = await repo.findByTokenHash(deps.db, sha256(token));
  if (!row || statusOf(row, deps.now()) !== 'pending')
    throw new ApiError('not_found', 'Invitation not found');
  return row;
};

/** What the invitee sees before accepting; unknown, accepted and expired tokens are 404. */
export const previewInvitation = async (deps: Deps, token: string): Promise<InvitationPreview> => {
  const row = await pendingByToken(deps, token);
  return {
    organization_id: row.organization_id,
    organization_name: row.organization_name,
    email: row.email,
    role: row.role,
    expires_at: iso(row.expires_at),
    status: 'pending',
  };
};

/** Joins the organization (creating the account when needed) and returns a session there. */
export const acceptInvitation = async (deps: Deps, body: InvitationAcceptBody): Promise<Session> => {
  const invitation = await pendingByToken(deps, body.token);
  const account = await findAccount(deps.db, invitation.email);
  if (
    account?.password_hash &&
    !(
      body.password &&
      (await verifyPassword(body.password, account.password_hash, deps.config.passwordHashCost))
    )
  ) {
    throw new ApiError('unauthenticated', 'The password does not match the invited account.');
  }
  if (!account && !body.password) {
    throw new ApiError('validation_failed', 'A password is required to create the invited account.', {
      errors: [{ path: 'body.password', message: 'Required' }],
    });
  }
  const passwordHash =
    !account && body.password ? await hashPassword(body.password, deps.config.passwordHashCost) : null;
  return deps.db.transaction(async (trx) => {
    if (!(await repo.claim(trx, invitation.id, deps.now())))
      throw new ApiError('not_found', 'Invitation not found');
    return joinOrganization(deps, trx, {
      account,
      email: invitation.email,
      name: body.name ?? invitation.email.split('@')[0]!,
      passwordHash,
      organizationId: invitation.organization_id,
      role: invitation.role,
    });
  });
};
