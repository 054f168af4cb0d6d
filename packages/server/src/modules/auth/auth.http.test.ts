import { SessionSchema } from '@voice-eval/contract';
import { beforeAll, describe, expect, it } from 'vitest';
import { expectProblem } from '../../../test/access-rules.js';
import { createHarness, type Harness } from '../../../test/harness.js';

let h: Harness;
beforeAll(async () => {
  h = await createHarness();
});

const signupBody = (email = `user-${Math.random().toString(36).slice(2)}@example.test`) => ({
  email,
  password: 'a long enough password',
  name: 'Grace Hopper',
  organization_name: 'Navy',
});

describe('GET /api/v1/auth/config', () => {
  it('is public and describes the login options', async () => {
    const reply = await h.request('GET', '/api/v1/auth/config');
    expect(reply.status).toBe(200);
    expect(reply.body).toEqual({
      signup_enabled: true,
      password_login_enabled: true,
      sso_providers: [],
      access_token_ttl_seconds: 900,
      api_key_headers: ['x-api-key', 'x-service-api-key'],
    });
  });
});

describe('signup and login', () => {
  it('signup creates a user, an organization with a default workspace and an OWNER membership', async () => {
    const reply = await h.request('POST', '/api/v1/auth/signup', { body: signupBody() });
    expect(reply.status).toBe(201);
    const session = SessionSchema.parse(reply.body);
    expect(session.user).toMatchObject({
      role: 'OWNER',
      name: 'Grace Hopper',
      first_name: 'Grace',
      last_name: 'Hopper',
      has_password: true,
    });
    expect(session.expires_in).toBe(900);
    const me = await h.request('GET', '/api/v1/auth/me', {
      headers: { authorization: `Bearer ${session.access_token}` },
    });
    expect(me.body).toMatchObject({
      principal_type: 'user',
      role: 'OWNER',
      organization: { id: session.user.organization_id, name: 'Navy', plan: 'free' },
      workspace: { is_default: true, slug: 'default' },
    });
    const org = await h.db('organizations').where({ id: session.user.organization_id }).first();
    expect(org.name).toBe('Navy');
  });

  it('signup of a registered e-mail is 409 and changes nothing', async () => {
    const body = signupBody();
    await h.request('POST', '/api/v1/auth/signup', { body });
    const before = await h.db('organizations').count({ n: '*' });
    expectProblem(
      await h.request('POST', '/api/v1/auth/signup', { body: { ...body, email: body.email.toUpperCase() } }),
      409,
      'conflict',
    );
    expect(await h.db('organizations').count({ n: '*' })).toEqual(before);
  });

  it('login returns a session; wrong password and unknown e-mail fail identically', async () => {
    const body = signupBody();
    await h.request('POST', '/api/v1/auth/signup', { body });
    const ok = await h.request('POST', '/api/v1/auth/login', {
      body: { email: body.email, password: body.password },
    });
    expect(ok.status).toBe(200);
    expect(SessionSchema.parse(ok.body).user.email).toBe(body.email);

    const wrong = await h.request('POST', '/api/v1/auth/login', {
      body: { email: body.email, password: 'not the password' },
    });
    const unknown = await h.request('POST', '/api/v1/auth/login', {
      body: { email: 'nobody@example.test', password: 'not the password' },
    });
    expectProblem(wrong, 401, 'unauthenticated');
    expectProblem(unknown, 401, 'unauthenticated');
    expect({ ...wrong.body, request_id: '' }).toEqual({ ...unknown.body, request_id: '' });
  });

  it('rejects an invalid body with 422 listing the fields', async () => {
    const reply = await h.request('POST', '/api/v1/auth/signup', {
      body: { email: 'not-an-email', password: 'short' },
    });
    expectProblem(reply, 422, 'validation_failed');
    expect(reply.body.errors.map((e: { path: string }) => e.path).sort()).toEqual([
      'body.email',
      'body.password',
    ]);
  });
});

describe('refresh tokens', () => {
  it('rotate: a refresh token works once and yields a new pair', async () => {
    const first = (await h.request('POST', '/api/v1/auth/signup', { body: signupBody() })).body;
    const second = await h.request('POST', '/api/v1/auth/refresh', {
      body: { refresh_token: first.refresh_token },
    });
    expect(second.status).toBe(200);
    expect(second.body.refresh_token).not.toBe(first.refresh_token);
    const third = await h.request('POST', '/api/v1/auth/refresh', {
      body: { refresh_token: second.body.refresh_token },
    });
    expect(third.status).toBe(200);
  });

  it('reuse of a used refresh token revokes the whole family', async () => {
    const first = (await h.request('POST', '/api/v1/auth/signup', { body: signupBody() })).body;
    const second = (
      await h.request('POST', '/api/v1/auth/refresh', { body: { refresh_token: first.refresh_token } })
    ).body;
    expectProblem(
      await h.request('POST', '/api/v1/auth/refresh', { body: { refresh_token: first.refresh_token } }),
      401,
    );
    // the attacker's replay also killed the legitimate, newer token
    expectProblem(
      await h.request('POST', '/api/v1/auth/refresh', { body: { refresh_token: second.refresh_token } }),
      401,
    );
  });

  it('logout revokes the family; unknown tokens still answer 204', async () => {
    const session = (await h.request('POST', '/api/v1/auth/signup', { body: signupBody() })).body;
    const out = await h.request('POST', '/api/v1/auth/logout', {
      body: { refresh_token: session.refresh_token },
    });
    expect(out.status).toBe(204);
    expect(out.headers.get('content-type')).toBeNull();
    expectProblem(
      await h.request('POST', '/api/v1/auth/refresh', { body: { refresh_token: session.refresh_token } }),
      401,
    );
    expect(
      (await h.request('POST', '/api/v1/auth/logout', { body: { refresh_token: 'vert_unknown' } })).status,
    ).toBe(204);
  });
});

describe('access tokens', () => {
  const b64 = (o: object) => Buffer.from(JSON.stringify(o)).toString('base64url');

  it('refuses alg none', async () => {
    const [, payload] = h.owner.access_token.split('.');
    const forged = `${b64({ alg: 'none', typ: 'JWT' })}.${payload}.`;
    expectProblem(
      await h.request('GET', '/api/v1/auth/me', { headers: { authorization: `Bearer ${forged}` } }),
      401,
    );
  });

  it('refuses a tampered payload and a tampered signature', async () => {
    const [header, payload, signature] = h.owner.access_token.split('.') as [string, string, string];
    const claims = JSON.parse(Buffer.from(payload, 'base64url').toString());
    const elevated = `${header}.${b64({ ...claims, org: '00000000-0000-4000-8000-000000000000' })}.${signature}`;
    expectProblem(
      await h.request('GET', '/api/v1/auth/me', { headers: { authorization: `Bearer ${elevated}` } }),
      401,
    );
    const flipped = `${header}.${payload}.${signature.slice(0, -2)}${signature.endsWith('AA') ? 'BB' : 'AA'}`;
    expectProblem(
      await h.request('GET', '/api/v1/auth/me', { headers: { authorization: `Bearer ${flipped}` } }),
      401,
    );
  });

  it('refuses a token signed with another secret', async () => {
    const { signAccessToken } = await import('./tokens.js');
    const token = await signAccessToken(
      'another-secret-that-is-32-characters-long!',
      { userId: h.owner.user.id, organizationId: h.organizationId },
      900,
      new Date(),
    );
    expectProblem(
      await h.request('GET', '/api/v1/auth/me', { headers: { authorization: `Bearer ${token}` } }),
      401,
    );
  });
});

describe('API keys', () => {
  it('generate-key returns a key once; it works in X-API-Key and X-SERVICE-API-KEY, and not after revoke', async () => {
    const created = await h.request('POST', '/api/v1/auth/generate-key', {
      headers: await h.as('ADMIN'),
      body: { name: 'ci' },
    });
    expect(created.status).toBe(201);
    expect(created.body.key).toMatch(/^ve_live_[0-9A-Za-z]{38}$/);
    expect(created.body.key.startsWith(created.body.prefix)).toBe(true);
    const stored = await h.db('api_keys').where({ id: created.body.id }).first();
    expect(JSON.stringify(stored)).not.toContain(created.body.key);

    for (const header of ['x-api-key', 'x-service-api-key']) {
      const me = await h.request('GET', '/api/v1/auth/me', { headers: { [header]: created.body.key } });
      expect(me.status).toBe(200);
      expect(me.body).toMatchObject({
        principal_type: 'api_key',
        user: null,
        api_key: { id: created.body.id, name: 'ci' },
      });
    }
    const listed = await h.request('GET', '/api/v1/api-keys', { headers: await h.as('ADMIN') });
    expect(listed.body.items.map((k: { id: string }) => k.id)).toContain(created.body.id);
    expect(JSON.stringify(listed.body)).not.toContain(created.body.key);

    expect(
      (await h.request('DELETE', `/api/v1/api-keys/${created.body.id}`, { headers: await h.as('ADMIN') }))
        .status,
    ).toBe(204);
    expectProblem(
      await h.request('GET', '/api/v1/auth/me', { headers: { 'x-api-key': created.body.key } }),
      401,
    );
  });

  it('refuses a key with a broken checksum without a lookup', async () => {
    const { key } = (
      await h.request('POST', '/api/v1/auth/generate-key', { headers: await h.as('OWNER'), body: {} })
    ).body;
    const typo = `${key.slice(0, -1)}${key.endsWith('a') ? 'b' : 'a'}`;
    expectProblem(await h.request('GET', '/api/v1/auth/me', { headers: { 'x-api-key': typo } }), 401);
  });

  it('API keys cannot generate keys; MEMBER cannot either', async () => {
    expectProblem(
      await h.request('POST', '/api/v1/auth/generate-key', { headers: await h.apiKey(), body: {} }),
      403,
      'interactive_user_required',
    );
    expectProblem(
      await h.request('POST', '/api/v1/auth/generate-key', { headers: await h.as('MEMBER'), body: {} }),
      403,
      'forbidden',
    );
  });
});

describe('POST /api/v1/auth/switch-org', () => {
  it('gives a session in another organization with the role re-derived from that membership', async () => {
    const other = await h.createTenant();
    await h
      .db('memberships')
      .insert({ organization_id: other.organizationId, user_id: h.owner.user.id, role: 'READER' });
    const reply = await h.request('POST', '/api/v1/auth/switch-org', {
      headers: { authorization: `Bearer ${h.owner.access_token}` },
      body: { organization_id: other.organizationId },
    });
    expect(reply.status).toBe(200);
    expect(reply.body.user).toMatchObject({ organization_id: other.organizationId, role: 'READER' });
    const me = await h.request('GET', '/api/v1/auth/me', {
      headers: { authorization: `Bearer ${reply.body.access_token}` },
    });
    expect(me.body.organization.id).toBe(other.organizationId);
    expect(me.body.role).toBe('READER');
  });

  it('is 404 for an organization the user is not an active member of', async () => {
    const other = await h.createTenant();
    const body = { organization_id: other.organizationId };
    expectProblem(
      await h.request('POST', '/api/v1/auth/switch-org', { headers: await h.as('MEMBER'), body }),
      404,
    );
    await h.db('memberships').insert({
      organization_id: other.organizationId,
      user_id: h.owner.user.id,
      role: 'ADMIN',
      status: 'suspended',
    });
    const headers = { authorization: `Bearer ${h.owner.access_token}` };
    expectProblem(await h.request('POST', '/api/v1/auth/switch-org', { headers, body }), 404);
  });

  it('is 403 for API keys', async () => {
    const reply = await h.request('POST', '/api/v1/auth/switch-org', {
      headers: await h.apiKey(),
      body: { organization_id: h.organizationId },
    });
    expectProblem(reply, 403, 'interactive_user_required');
  });
});

describe('invitations', () => {
  it('an ADMIN invites; the preview is public; accepting creates the account and a session in the organization', async () => {
    const email = `invitee-${Date.now()}@example.test`;
    const invite = await h.request('POST', '/api/v1/invitations', {
      headers: await h.as('ADMIN'),
      body: { email, role: 'MEMBER' },
    });
    expect(invite.status).toBe(201);
    const preview = await h.request('GET', `/api/v1/auth/invitations/preview/${invite.body.token}`);
    expect(preview.body).toMatchObject({
      organization_id: h.organizationId,
      email,
      role: 'MEMBER',
      status: 'pending',
    });
    const accepted = await h.request('POST', '/api/v1/invitations/accept', {
      body: { token: invite.body.token, password: 'invitee password' },
    });
    expect(accepted.status).toBe(200);
    expect(accepted.body.user).toMatchObject({ email, organization_id: h.organizationId, role: 'MEMBER' });
    expectProblem(await h.request('GET', `/api/v1/auth/invitations/preview/${invite.body.token}`), 404);
    expectProblem(
      await h.request('POST', '/api/v1/invitations/accept', {
        body: { token: invite.body.token, password: 'invitee password' },
      }),
      404,
    );
  });

  it('MEMBER cannot invite; unknown tokens are 404', async () => {
    const body = { email: 'x@example.test', role: 'READER' };
    expectProblem(
      await h.request('POST', '/api/v1/invitations', { headers: await h.as('MEMBER'), body }),
      403,
    );
    expectProblem(await h.request('GET', '/api/v1/auth/invitations/preview/veinv_nope'), 404);
  });
});
