import { randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ProblemSchema } from '@voice-eval/contract';
import { NotFoundError, VoiceEval } from '@voice-eval/sdk';
import { createVoiceEvalServer, type VoiceEvalServer } from '@voice-eval/server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHostApp } from '../src/app.js';

const TOKEN = 'host-internal-token';
let voiceEval: VoiceEvalServer;
let server: Server;
let dataDir: string;
let url: string;

beforeAll(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'voice-eval-host-app-'));
  voiceEval = createVoiceEvalServer({ dataDir, logLevel: 'silent' });
  await voiceEval.start();
  server = createHostApp({ voiceEval, internalToken: TOKEN }).listen(0, '127.0.0.1');
  await new Promise<void>((resolve) => server.once('listening', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}, 120_000);
afterAll(async () => {
  if (server) await new Promise<void>((resolve) => server.close(() => resolve()));
  await voiceEval?.close();
  if (dataDir) await rm(dataDir, { recursive: true, force: true });
});

const get = (path: string, headers: Record<string, string> = {}) => fetch(`${url}${path}`, { headers });

describe("the host's own routes", { timeout: 60_000 }, () => {
  it('answer as before, with their own authentication', async () => {
    const health = await get('/healthz');
    expect([health.status, await health.json()]).toEqual([200, { status: 'ok' }]);
    const anonymous = await get('/internal/hello');
    expect([anonymous.status, await anonymous.json()]).toEqual([401, { error: 'unauthorized' }]);
    const hello = await get('/internal/hello', { 'x-internal-token': TOKEN });
    expect(await hello.json()).toEqual({ hello: 'from the host' });
    const echo = await fetch(`${url}/internal/echo`, {
      method: 'POST',
      headers: { 'x-internal-token': TOKEN, 'content-type': 'application/json' },
      body: JSON.stringify({ a: 1 }),
    });
    expect(await echo.json()).toEqual({ echo: { a: 1 } });
  });

  it("keep the host's 404 for paths that are not voice-eval's", async () => {
    for (const path of ['/nope', '/api/v2/metrics', '/internal/nope', '/documents']) {
      const res = await get(path, { 'x-internal-token': TOKEN });
      expect(res.status, path).toBe(404);
      expect(res.headers.get('content-type')).toMatch(/^application\/json/);
      expect(await res.json()).toEqual({ error: 'not_found', path });
    }
  });
});

describe('voice-eval inside the host', { timeout: 60_000 }, () => {
  it('signs up, authenticates and serves the API through the SDK at the host origin', async () => {
    const session = await new VoiceEval({ baseUrl: url, logLevel: 'off' }).auth.signup({
      email: `owner-${randomUUID().slice(0, 8)}@example.test`,
      password: 'correct horse battery staple',
      organization_name: 'Host Co',
    });
    const client = new VoiceEval({ baseUrl: url, accessToken: session.access_token, logLevel: 'off' });
    await expect(client.auth.me()).resolves.toMatchObject({ organization: { name: 'Host Co' } });
    const tag = await client.tags.create({ name: 'Embedded' });
    expect((await client.tags.list()).items.map((t) => t.id)).toEqual([tag.id]);
    const missing = await client.metrics.get(randomUUID()).catch((e: unknown) => e);
    expect(missing).toBeInstanceOf(NotFoundError);

    // Express parses the query in the outermost app, with the host's settings: long repeated
    // parameters (more than qs's 20) must still reach voice-eval as a list
    const tagIds = Array.from({ length: 25 }, () => randomUUID());
    await expect(client.callImports.list({ tag_id: tagIds })).resolves.toMatchObject({ total: 0 });
  });

  it('answers unknown /api/v1 paths and malformed JSON with its own problems', async () => {
    const res = await get('/api/v1/does-not-exist');
    expect(res.status).toBe(404);
    expect(res.headers.get('content-type')).toMatch(/^application\/problem\+json/);
    const problem = ProblemSchema.parse(await res.json());
    expect(problem).toMatchObject({
      status: 404,
      code: 'not_found',
      request_id: res.headers.get('x-request-id'),
    });

    const bad = await fetch(`${url}/api/v1/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{',
    });
    expect(bad.status).toBe(400);
    expect(ProblemSchema.parse(await bad.json())).toMatchObject({ code: 'bad_request' });
  });

  it('serves the OpenAPI document and the docs page, whose relative URLs resolve', async () => {
    const spec = await get('/openapi.json');
    expect(spec.status).toBe(200);
    const document = (await spec.json()) as { openapi: string; paths: Record<string, unknown> };
    expect(document.openapi).toMatch(/^3\./);
    expect(Object.keys(document.paths)).toContain('/api/v1/metrics');

    const docs = await get('/docs');
    expect(docs.status).toBe(200);
    const html = await docs.text();
    const relative = [...html.matchAll(/(?:href|src)="([^"]+)"/g)].map((m) => m[1]!);
    expect(relative).toEqual([
      'docs/assets/swagger-ui.css',
      'docs/assets/favicon-32x32.png',
      'docs/assets/swagger-ui-bundle.js',
      'docs/init.js',
    ]);
    for (const path of relative) {
      expect((await fetch(new URL(path, `${url}/docs`))).status, path).toBe(200);
    }
    const init = await (await fetch(new URL('docs/init.js', `${url}/docs`))).text();
    const specUrl = init.match(/url: '([^']+)'/)?.[1];
    expect((await fetch(new URL(specUrl!, `${url}/docs`))).status).toBe(200);
  });

  it("serves the console under the host's admin prefix, based there, talking to the API at the root", async () => {
    for (const path of [
      '/admin/voice-eval/',
      '/admin/voice-eval/runs',
      '/admin/voice-eval/calls/x?import=y',
    ]) {
      const res = await get(path);
      expect(res.status, path).toBe(200);
      const html = await res.text();
      expect(html).toContain('<base href="/admin/voice-eval/">');
      expect(html).toContain('<meta name="voice-eval-api" content="/">');
      const script = /src="\.\/(assets\/[^"]+\.js)"/.exec(html)?.[1] ?? 'missing';
      expect((await get(`/admin/voice-eval/${script}`)).status).toBe(200);
    }
    // the voice-eval app itself stays on its own paths: /console is the host's 404
    expect((await get('/console/runs')).status).toBe(404);
  });
});
