import { once } from 'node:events';
import type { AddressInfo } from 'node:net';
import express from 'express';
import { beforeAll, describe, expect, it } from 'vitest';
import { expectProblem } from '../../test/access-rules.js';
import { createHarness, type Harness } from '../../test/harness.js';

let h: Harness;
beforeAll(async () => {
  h = await createHarness({ jsonBodyLimitBytes: 1024 });
});

describe('problem+json on every error path', () => {
  it('malformed JSON is 400 bad_request', async () => {
    const reply = await h.request('POST', '/api/v1/auth/login', { body: '{"email": ' });
    expectProblem(reply, 400, 'bad_request');
    expect(reply.body.type).toBe('urn:voice-eval:problem:bad_request');
  });

  it('a JSON body that is not valid UTF-8 is 400 bad_request and changes nothing', async () => {
    const headers = await h.as('OWNER');
    const post = (path: string, body: Buffer, type = 'application/json') =>
      fetch(`${h.url}${path}`, {
        method: 'POST',
        headers: { ...headers, 'content-type': type },
        body: new Uint8Array(body),
      });
    const latin1 = Buffer.from('{"name":"Caf\xe9","slug":"cafe-latin1"}', 'latin1');
    for (const reply of [
      await post('/api/v1/workspaces', latin1),
      await post('/api/v1/workspaces', latin1, 'application/json; charset=utf-8'),
      // a platform's delivery too, before its signature is looked at
      await post('/api/v1/ingest/vapi/00000000-0000-4000-8000-000000000000', latin1),
    ]) {
      expect(reply.status).toBe(400);
      expect(reply.headers.get('content-type')).toMatch(/^application\/problem\+json/);
      expect(await reply.json()).toMatchObject({
        code: 'bad_request',
        detail: 'The body is not valid UTF-8.',
      });
    }
    const listed = await h.request('GET', '/api/v1/workspaces?page_size=100', { headers });
    expect(listed.body.items.map((w: { slug: string }) => w.slug)).not.toContain('cafe-latin1');
    // the same text in UTF-8, or in UTF-16 as its charset says, is taken as sent
    const utf8 = await post('/api/v1/workspaces', Buffer.from('{"name":"Café","slug":"cafe-utf8"}', 'utf8'));
    expect(utf8.status).toBe(201);
    expect(await utf8.json()).toMatchObject({ name: 'Café' });
    const utf16 = await post(
      '/api/v1/workspaces',
      Buffer.from('{"name":"Café","slug":"cafe-utf16"}', 'utf16le'),
      'application/json; charset=utf-16le',
    );
    expect(utf16.status).toBe(201);
    expect(await utf16.json()).toMatchObject({ name: 'Café' });
  });

  it('bad percent-encoding in a path parameter is 400 bad_request, not a 500', async () => {
    const headers = await h.as('OWNER');
    for (const path of [
      '/api/v1/tags/%E0%A4%A',
      '/api/v1/tags/%',
      '/api/v1/evaluator-suites/%E0%A4%A/runs',
    ]) {
      const method = path.endsWith('/runs') ? 'POST' : 'DELETE';
      expectProblem(
        await h.request(method, path, { headers, body: method === 'POST' ? {} : undefined }),
        400,
        'bad_request',
      );
    }
  });

  it('an unknown route is 404 not_found', async () => {
    expectProblem(await h.request('GET', '/api/v1/nothing-here'), 404, 'not_found');
    expectProblem(await h.request('DELETE', '/api/v1/auth/config'), 404, 'not_found');
  });

  it('a body over the limit is 413 payload_too_large', async () => {
    const reply = await h.request('POST', '/api/v1/auth/login', {
      body: { email: 'a@b.co', password: 'x'.repeat(2000) },
    });
    expectProblem(reply, 413, 'payload_too_large');
  });

  it('a schema-invalid body, query or path is 422 with every field listed', async () => {
    const headers = await h.as('OWNER');
    const body = await h.request('POST', '/api/v1/workspaces', {
      headers,
      body: { name: '', slug: 'Not A Slug' },
    });
    expectProblem(body, 422, 'validation_failed');
    expect(body.body.errors.map((e: { path: string }) => e.path).sort()).toEqual(['body.name', 'body.slug']);
    const query = await h.request('GET', '/api/v1/workspaces?page=0&page_size=101', { headers });
    expectProblem(query, 422, 'validation_failed');
    expect(query.body.errors.map((e: { path: string }) => e.path).sort()).toEqual([
      'query.page',
      'query.page_size',
    ]);
    const path = await h.request('GET', '/api/v1/workspaces/not-a-uuid', { headers });
    expectProblem(path, 422, 'validation_failed');
    expect(path.body.errors[0].path).toBe('params.workspace_id');
  });

  it('an unexpected failure is 500 internal and leaks nothing', async () => {
    const headers = await h.as('OWNER');
    await h.db.schema.renameTable('workspaces', 'workspaces_hidden');
    try {
      const reply = await h.request('GET', '/api/v1/workspaces', { headers });
      expectProblem(reply, 500, 'internal');
      expect(JSON.stringify(reply.body)).not.toMatch(/workspaces|relation|select|stack/i);
    } finally {
      await h.db.schema.renameTable('workspaces_hidden', 'workspaces');
    }
  });
});

describe('X-Request-Id', () => {
  it('is on every response and echoes a valid incoming id', async () => {
    const ok = await h.request('GET', '/api/v1/auth/config', { headers: { 'x-request-id': 'trace-123' } });
    expect(ok.headers.get('x-request-id')).toBe('trace-123');
    const fresh = await h.request('GET', '/api/v1/auth/config', {
      headers: { 'x-request-id': 'bad id with spaces' },
    });
    expect(fresh.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
    const problem = await h.request('GET', '/api/v1/nothing', { headers: { 'x-request-id': 'trace-456' } });
    expect(problem.body.request_id).toBe('trace-456');
  });
});

describe('security headers and CORS', () => {
  it('sends the OWASP REST security headers, and no x-powered-by', async () => {
    for (const reply of [
      await h.request('GET', '/api/v1/auth/config'),
      await h.request('GET', '/api/v1/nothing-here'),
    ]) {
      expect(reply.headers.get('content-security-policy')).toBe("default-src 'none';frame-ancestors 'none'");
      expect(reply.headers.get('x-frame-options')).toBe('DENY');
      expect(reply.headers.get('x-content-type-options')).toBe('nosniff');
      // HSTS only over HTTPS (req.secure): docs.http.test.ts covers a forwarded https request
      expect(reply.headers.get('strict-transport-security')).toBeNull();
      expect(reply.headers.get('cache-control')).toBe('no-store');
      expect(reply.headers.get('x-powered-by')).toBeNull();
      // no-store leaves a client nothing to revalidate: no ETag is computed
      expect(reply.headers.get('etag')).toBeNull();
    }
    const conditional = await h.request('GET', '/api/v1/auth/config', { headers: { 'if-none-match': '*' } });
    expect(conditional.status).toBe(200);
  });

  it('sends no x-powered-by from a host app that mounts it', async () => {
    const host = express().use(h.server.app);
    const server = host.listen(0, '127.0.0.1');
    await once(server, 'listening');
    const { port } = server.address() as AddressInfo;
    const api = await fetch(`http://127.0.0.1:${port}/api/v1/auth/config`);
    expect(api.status).toBe(200);
    expect(api.headers.get('x-powered-by')).toBeNull();
    server.close();
  });

  it('allows only configured origins', async () => {
    const reply = await h.request('GET', '/api/v1/auth/config', {
      headers: { origin: 'https://evil.example' },
    });
    expect(reply.headers.get('access-control-allow-origin')).toBeNull();
  });
});

describe('requests the HTTP parser refuses', () => {
  it('a request line over the size limit is a 400 problem, not a bare 431', async () => {
    const reply = await h.request('GET', `/api/v1/tags?q=${'x'.repeat(20_000)}`);
    expectProblem(reply, 400, 'bad_request');
  });
});
