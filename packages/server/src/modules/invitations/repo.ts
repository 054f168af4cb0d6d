import type { Invitation } from '@voice-eval/contract';
import type { Knex } from 'knex';

export type InvitationRow = {
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

/** Replaces the e-mail's pending invitation to the organization with a new one. */
export const replacePending = async (
  trx: Knex,
  invitation: Pick<InvitationRow, 'organization_id' | 'email' | 'role' | 'invited_by' | 'expires_at'> & {
    token_hash: string;
  },
): Promise<InvitationRow> => {
  await trx('invitations')
    .where({ organization_id: invitation.organization_id })
    .whereRaw('lower(email) = lower(?)', [invitation.email])
    .whereNull('accepted_at')
    .delete();
  const [created] = await trx('invitations').insert(invitation).returning('*');
  return created as InvitationRow;
};

/** The invitation of a token (by its hash), with its organization's name. */
export const findByTokenHash = (db: Knex, tokenHash: string) =>
  db('invitations as i')
    .join('organizations as o', 'o.id', 'i.organization_id')
    .where({ 'i.token_hash': tokenHash })
    .first<(InvitationRow & { organization_name: string }) | undefined>('i.*', 'o.name as organization_name');

/** Marks the invitation accepted unless it already is; says whether this call accepted it. */
export const claim = async (trx: Knex, id: string, now: Date): Promise<boolean> =>
  (await trx('invitations').where({ id }).whereNull('accepted_at').update({ accepted_at: now })) === 1;
