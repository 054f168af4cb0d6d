import pino from 'pino';
import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createHarness, type Harness } from '../../test/harness.js';

type Line = Record<string, any>;

const lines: Line[] = [];
const raw: string[] = [];
let h: Harness;
beforeAll(async () => {
  const stream = {
    write(line: string) {
      raw.push(line);
      lines.push(JSON.parse(line));
    },
  };
  h = await createHarness({ logger: pino({ level: 'info' }, stream) });
});
beforeEach(() => {
  lines.length = 0;
  raw.length = 0;
});

const linesOf = (requestId: string | null) => lines.filter((l) => l.reqId === requestId);

describe('request logs', () => {
  it('write one line per request: id, method, path, status and duration, at a level by status', async () => {
    const ok = await h.request('GET', '/api/v1/auth/config?x=1');
    const missing = await h.request('GET', '/api/v1/nothing-here');
    await expect.poll(() => lines.length).toBeGreaterThanOrEqual(2);

    const [completed] = linesOf(ok.headers.get('x-request-id'));
    expect(completed).toMatchObject({
      level: 30,
      msg: 'request:completed',
      req: { method: 'GET', url: '/api/v1/auth/config?x=1' },
      res: { statusCode: 200 },
    });
    expect(completed!.responseTime).toBeGreaterThanOrEqual(0);
    expect(linesOf(missing.headers.get('x-request-id'))).toEqual([
      expect.objectContaining({ level: 40, res: { statusCode: 404 } }),
    ]);
  });

  it('never contain a credential, a password or a request body', async () => {
    const bearer = await h.as('OWNER');
    const apiKey = await h.apiKey();
    await h.request('GET', '/api/v1/auth/me', { headers: bearer });
    await h.request('GET', '/api/v1/workspaces', { headers: { 'x-service-api-key': apiKey['x-api-key']! } });
    await h.request('POST', '/api/v1/auth/login', {
      body: { email: 'nobody@example.test', password: 'a very secret password' },
    });
    await expect.poll(() => lines.length).toBeGreaterThanOrEqual(3);

    const text = raw.join('');
    expect(text).not.toContain(bearer.authorization!.slice('Bearer '.length));
    expect(text).not.toContain(apiKey['x-api-key']);
    expect(text).not.toContain('a very secret password');
    expect(text).not.toContain('nobody@example.test');
  });

  it('log an unexpected failure at error level, with its stack, under the request id', async () => {
    const headers = await h.as('OWNER');
    await h.db.schema.renameTable('workspaces', 'workspaces_hidden');
    try {
      const reply = await h.request('GET', '/api/v1/workspaces', { headers });
      expect(reply.status).toBe(500);
      await expect.poll(() => linesOf(reply.headers.get('x-request-id')).length).toBe(2);
      const [failed, completed] = linesOf(reply.headers.get('x-request-id'));
      expect(failed).toMatchObject({ level: 50, msg: 'request:failed' });
      expect(failed!.err.stack).toMatch(/workspaces/);
      expect(completed).toMatchObject({ level: 50, msg: 'request:completed', res: { statusCode: 500 } });
    } finally {
      await h.db.schema.renameTable('workspaces_hidden', 'workspaces');
    }
  });
});

describe('request logs and secrets in URLs', () => {
  it('never contain an invitation token from the path, whatever the outcome of the request', async () => {
    const invite = await h.request('POST', '/api/v1/invitations', {
      headers: await h.as('ADMIN'),
      body: { email: 'invitee-log@example.test', role: 'MEMBER' },
    });
    expect(invite.status).toBe(201);
    const token: string = invite.body.token;
    const unknown = 'unknown-invitation-token-0123456789';
    const replies = await Promise.all([
      h.request('GET', `/api/v1/auth/invitations/preview/${token}`),
      h.request('GET', `/API/V1/Auth/Invitations/Preview/${token}/`),
      h.request('GET', `/api/v1/auth/invitations/preview/${unknown}?page=2`),
      h.request('GET', `/api/v1/auth/invitations/pr%65view/${unknown}/extra`),
    ]);
    expect(replies.map((r) => r.status)).toEqual([200, 200, 404, 404]);
    await expect.poll(() => lines.length).toBeGreaterThanOrEqual(5);

    const text = raw.join('');
    expect(text).not.toContain(token);
    expect(text).not.toContain(unknown);
    const urls = replies.map((r) => linesOf(r.headers.get('x-request-id'))[0]?.req.url);
    expect(urls).toEqual([
      '/api/v1/auth/invitations/preview/[redacted]',
      '/API/V1/Auth/Invitations/Preview/[redacted]/',
      '/api/v1/auth/invitations/preview/[redacted]?page=2',
      '/api/v1/auth/invitations/pr%65view/[redacted]/extra',
    ]);
  });

  it('never contain the value of a secret-named query parameter, and keep the others', async () => {
    const secrets = {
      token: 'qs-secret-token',
      access_token: 'qs-secret-access-token',
      apiKey: 'qs-secret-api-key',
      'X-Amz-Signature': 'qs-secret-amz-signature',
      'X-Amz-Security-Token': 'qs-secret-amz-security-token',
      password: 'qs-secret-password',
      code: 'qs-secret-oauth-code',
      sig: 'qs-secret-sas-sig',
      client_secret: 'qs-secret-client-secret',
    };
    const query = new URLSearchParams({ q: 'visible-query', ...secrets, page: '1' }).toString();
    const replies = await Promise.all([
      h.request('GET', `/api/v1/tags?${query}`, { headers: await h.as('READER') }),
      h.request('GET', `/api/v1/no-such-route?${query}`),
      h.request(
        'GET',
        '/api/v1/auth/config?%E0%A4%A=qs-secret-undecodable-name&api%5Fkey=qs-secret-encoded-name',
      ),
    ]);
    expect(replies.map((r) => r.status)).toEqual([200, 404, 200]);
    await expect.poll(() => lines.length).toBeGreaterThanOrEqual(3);

    const text = raw.join('');
    for (const value of [...Object.values(secrets), 'qs-secret-undecodable-name', 'qs-secret-encoded-name']) {
      expect(text).not.toContain(value);
    }
    const [tags] = linesOf(replies[0]!.headers.get('x-request-id'));
    expect(tags!.req.url).toContain('q=visible-query');
    expect(tags!.req.url).toContain('token=[redacted]');
    expect(tags!.req.url).toContain('X-Amz-Signature=[redacted]');
    expect(tags!.req.url).toContain('page=1');
  });
});
