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
import * as authRepo from '../auth/repo.js';
import { issueSession } from '../auth/service.js';
import { sha256 } from '../auth/tokens.js';

type InvitationRow = {
  id: string;
  organization_id: string;
  email: string;
  role: Invitation['role'];
  invited_by: string | null;
  expires_at: Date;
  accepted_at: Date | null;
  created_at: Date;
  updated_at: Date;
};

const statusOf = (row: InvitationRow, now: Date): Invitation['status'] =>
  row.accepted_at ? 'accepted' : row.expires_at <= now ? 'expired' : 'pending';

const toInvitation = (row: InvitationRow, now: Date): Invitation => ({
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
    const member = await trx('memberships as m')
      .join('users as u', 'u.id', 'm.user_id')
      .where({ 'm.organization_id': ctx.organizationId })
      .whereRaw('lower(u.email) = lower(?)', [body.email])
      .first('m.user_id');
    if (member)
      throw new ApiError('conflict', 'This e-mail already belongs to a member of the organization.');
    await trx('invitations')
      .where({ organization_id: ctx.organizationId })
      .whereRaw('lower(email) = lower(?)', [body.email])
      .whereNull('accepted_at')
      .delete();
    const [created] = await trx('invitations')
      .insert({
        organization_id: ctx.organizationId,
        email: body.email,
        role: body.role,
        token_hash: sha256(token),
        invited_by: ctx.principal.kind === 'user' ? ctx.principal.userId : null,
        expires_at: new Date(now.getTime() + INVITATION_TTL_SECONDS * 1000),
      })
      .returning('*');
    return created as InvitationRow;
  });
  return { ...toInvitation(row, now), token };
};

const pendingByToken = async (deps: Deps, token: string) => {
  const row = await deps
    .db('invitations as i')
    .join('organizations as o', 'o.id', 'i.organization_id')
    .where({ 'i.token_hash': sha256(token) })
    .first<(InvitationRow & { organization_name: string }) | undefined>('i.*', 'o.name as organization_name');
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
  let user = await authRepo.findUserByEmail(deps.db, invitation.email);
  if (user?.password_hash && !(body.password && (await verifyPassword(body.password, user.password_hash)))) {
    throw new ApiError('unauthenticated', 'The password does not match the invited account.');
  }
  if (!user && !body.password) {
    throw new ApiError('validation_failed', 'A password is required to create the invited account.', {
      errors: [{ path: 'body.password', message: 'Required' }],
    });
  }
  const passwordHash = !user && body.password ? await hashPassword(body.password) : null;
  return deps.db.transaction(async (trx) => {
    const claimed = await trx('invitations')
      .where({ id: invitation.id })
      .whereNull('accepted_at')
      .update({ accepted_at: deps.now() });
    if (claimed !== 1) throw new ApiError('not_found', 'Invitation not found');
    if (!user) {
      const name = body.name ?? invitation.email.split('@')[0]!;
      const [first = '', ...rest] = name.split(/\s+/);
      user = await authRepo.insertUser(trx, {
        email: invitation.email,
        name,
        first_name: first,
        last_name: rest.join(' '),
        password_hash: passwordHash,
        email_is_placeholder: false,
      });
    }
    await trx('memberships')
      .insert({ organization_id: invitation.organization_id, user_id: user.id, role: invitation.role })
      .onConflict(['organization_id', 'user_id'])
      .merge({ role: invitation.role, status: 'active' });
    deps.authCache.evict(`member:${user.id}:`);
    const membership = await authRepo.findActiveMembership(trx, user.id, invitation.organization_id);
    return issueSession(deps, trx, user, membership!);
  });
};
