import type { ApiKey, Invitation, Me } from '@voice-eval/contract';
import { idOf, notFound, type RouteImpl } from './env.js';
import { MOCK_WORKSPACE_ID } from './fixture-types.js';

type Body = Record<string, unknown>;
const bodyOf = (req: { body: unknown }) => (req.body ?? {}) as Body;

const session: RouteImpl = (req, env) => {
  const email = bodyOf(req).email;
  const user = env.fixtures.user(typeof email === 'string' ? { email } : {});
  return { status: 200, body: env.fixtures.session({ user }) };
};

/** Identity routes: sessions, the caller, API keys and invitations. */
export const authImpls: Record<string, RouteImpl> = {
  'auth.config': (_req, env) => ({ status: 200, body: env.fixtures.authConfig() }),
  'auth.login': session,
  'auth.signup': async (req, env) => ({ ...(await session(req, env)), status: 201 }),
  'auth.refresh': session,
  'auth.switchOrg': session,
  'auth.logout': () => ({ status: 204 }),
  'auth.invitationPreview': (_req, env) => ({ status: 200, body: env.fixtures.invitationPreview() }),
  'auth.me': (req, env) => {
    const workspace =
      env.db.workspaces.get(req.workspaceId) ??
      env.db.workspaces.get(MOCK_WORKSPACE_ID) ??
      env.fixtures.defaultWorkspace();
    const viaKey = !req.request.headers.get('authorization');
    const key = env.db.apiKeys.all()[0] ?? env.fixtures.apiKey();
    const me: Partial<Me> = viaKey
      ? {
          principal_type: 'api_key',
          user: null,
          api_key: { id: key.id, name: key.name, prefix: key.prefix },
          memberships: [],
        }
      : { principal_type: 'user', api_key: null };
    return { status: 200, body: env.fixtures.me({ ...me, workspace }) };
  },
  'auth.generateKey': (req, env) => {
    const name = (bodyOf(req).name as string | undefined) ?? 'API key';
    const created = env.fixtures.apiKeyCreated({ name });
    const key: ApiKey = env.fixtures.apiKey({
      id: created.id,
      name,
      prefix: created.prefix,
      created_at: created.created_at,
    });
    env.db.apiKeys.create(key);
    return { status: 201, body: created };
  },
  'apiKeys.revoke': (req, env) => {
    const key = env.db.apiKeys.get(idOf(req));
    if (!key) return notFound('API key');
    if (key.revoked_at === null) env.db.apiKeys.update(key.id, { revoked_at: env.seq.timestamp() });
    return { status: 204 };
  },
  'invitations.create': (req, env) => {
    const { email, role } = bodyOf(req) as Pick<Invitation, 'email' | 'role'>;
    const created = env.fixtures.invitationCreated({ email, role });
    const { token: _token, ...invitation } = created;
    for (const other of env.db.invitations.all()) {
      if (other.email === email && other.status === 'pending')
        env.db.invitations.update(other.id, { status: 'revoked' });
    }
    env.db.invitations.create(invitation);
    return { status: 201, body: created };
  },
  'invitations.accept': session,
};
