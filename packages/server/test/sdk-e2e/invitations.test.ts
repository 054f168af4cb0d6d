/**
 * Server, contract and SDK agree on invitations: create, preview, accept and conflicts.
 * Add an area the same way: `<area>.test.ts` here with `createSdkHarness`, `expectApiError` and
 * `expectPagination`.
 */
import { randomUUID } from 'node:crypto';
import { ConflictError, NotFoundError } from '@voice-eval/sdk';
import { beforeAll, describe, expect, it } from 'vitest';
import { expectApiError } from './conformance.js';
import { createSdkHarness, type SdkHarness } from './sdk-harness.js';

let h: SdkHarness;
beforeAll(async () => {
  h = await createSdkHarness();
});

const email = () => `sdk-${randomUUID().slice(0, 8)}@example.test`;
const PASSWORD = 'correct horse battery';
describe('invitations', () => {
  it('create, preview and accept: the invitee gets a session in the organization', async () => {
    const invitee = email();
    const invitation = await h.sdk().invitations.create({ email: invitee, role: 'MEMBER' });
    expect(invitation).toMatchObject({ email: invitee, role: 'MEMBER', status: 'pending' });
    await expect(h.anonymous().auth.invitationPreview(invitation.token)).resolves.toMatchObject({
      email: invitee,
      organization_id: h.organizationId,
    });
    const session = await h.anonymous().invitations.accept({ token: invitation.token, password: PASSWORD });
    const member = h.sdk({ accessToken: session.access_token, refreshToken: session.refresh_token });
    await expect(member.auth.me()).resolves.toMatchObject({
      role: 'MEMBER',
      organization: { id: h.organizationId },
    });
  });

  it('unknown tokens are 404; inviting a member is 409', async () => {
    await expectApiError(
      h.anonymous().auth.invitationPreview('no-such-token'),
      NotFoundError,
      404,
      'not_found',
    );
    await expectApiError(
      h.sdk().invitations.create({ email: h.owner.user.email, role: 'ADMIN' }),
      ConflictError,
      409,
      'conflict',
    );
  });
});
