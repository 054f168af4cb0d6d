import { initContract } from '@ts-rest/core';
import { SessionSchema } from '../resources/auth.js';
import {
  InvitationAcceptBodySchema,
  InvitationCreateBodySchema,
  InvitationCreatedSchema,
} from '../resources/invitation.js';

const c = initContract();

export const invitations = c.router({
  create: {
    method: 'POST',
    path: '/api/v1/invitations',
    body: InvitationCreateBodySchema,
    responses: { 201: InvitationCreatedSchema },
    metadata: { minRole: 'ADMIN' } as const,
    summary:
      'Invite an e-mail to the organization (returns the one-time token; replaces a pending invitation)',
  },
  accept: {
    method: 'POST',
    path: '/api/v1/invitations/accept',
    body: InvitationAcceptBodySchema,
    responses: { 200: SessionSchema },
    metadata: { public: true } as const,
    summary:
      "Accept an invitation, creating the invitee's account if needed; returns a session in that organization",
  },
});
