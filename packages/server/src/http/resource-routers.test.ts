import type { Server } from 'node:http';
import { initContract } from '@ts-rest/core';
import { createExpressEndpoints } from '@ts-rest/express';
import express from 'express';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { resourceRouters } from './resource-routers.js';

const c = initContract();
const served = { 200: z.object({ by: z.string() }) };
const suites = c.router({
  get: { method: 'GET', path: '/api/v1/suites/:id', responses: served },
  fail: { method: 'POST', path: '/api/v1/suites/:id/fail', body: c.noBody(), responses: served },
});
// a second area under the same segment, as suite runs are started under evaluator suites
const runs = c.router({
  start: { method: 'POST', path: '/api/v1/suites/:id/runs', body: c.noBody(), responses: served },
  get: { method: 'GET', path: '/api/v1/runs/:id', responses: served },
});
const tags = c.router({ list: { method: 'GET', path: '/api/v1/tags', responses: served } });

describe('resourceRouters', () => {
  const seen: string[] = [];
  let server: Server;
  let url: string;

  beforeAll(async () => {
    const app = express();
    const routers = resourceRouters();
    app.use(routers.dispatch);
    const mount = (name: string, area: typeof suites | typeof runs | typeof tags, impl: object) => {
      const router = routers.routerFor(area);
      router.use((_req, _res, next) => {
        seen.push(name);
        next();
      });
      createExpressEndpoints(area, impl as never, router, { logInitialization: false });
    };
    const by = (name: string) => async () => ({ status: 200 as const, body: { by: name } });
    mount('suites', suites, {
      get: by('suites.get'),
      fail: async () => {
        throw new Error('boom');
      },
    });
    mount('runs', runs, { start: by('runs.start'), get: by('runs.get') });
    mount('tags', tags, { list: by('tags.list') });
    app.use((_req, res) => res.status(404).json({ by: 'not found' }));
    app.use((_err: unknown, _req: express.Request, res: express.Response, _next: express.NextFunction) => {
      res.status(500).json({ by: 'error handler' });
    });
    server = app.listen(0, '127.0.0.1');
    await new Promise((resolve) => server.once('listening', resolve));
    const address = server.address();
    url = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
  });
  afterAll(() => server.close());

  const call = async (method: string, path: string) => {
    seen.length = 0;
    const res = await fetch(url + path, { method });
    return { status: res.status, by: ((await res.json()) as { by: string }).by, seen: [...seen] };
  };

  it("hands a request to its segment's router only", async () => {
    expect(await call('GET', '/api/v1/tags')).toEqual({ status: 200, by: 'tags.list', seen: ['tags'] });
    expect(await call('GET', '/api/v1/runs/1')).toEqual({ status: 200, by: 'runs.get', seen: ['runs'] });
  });

  it('tries the areas that share a segment in the order they were added', async () => {
    expect(await call('GET', '/api/v1/suites/1')).toEqual({
      status: 200,
      by: 'suites.get',
      seen: ['suites'],
    });
    expect(await call('POST', '/api/v1/suites/1/runs')).toEqual({
      status: 200,
      by: 'runs.start',
      seen: ['suites', 'runs'],
    });
  });

  it("keeps Express's matching: any case, an optional trailing slash", async () => {
    expect(await call('GET', '/API/V1/Tags/')).toMatchObject({ status: 200, by: 'tags.list' });
    expect(await call('GET', '/api/v1/RUNS/1')).toMatchObject({ status: 200, by: 'runs.get' });
  });

  it('passes on what no area serves, and errors to the error handler', async () => {
    expect(await call('GET', '/api/v1/unknown/1')).toEqual({ status: 404, by: 'not found', seen: [] });
    expect(await call('GET', '/api/v1/')).toEqual({ status: 404, by: 'not found', seen: [] });
    expect(await call('GET', '/tags')).toEqual({ status: 404, by: 'not found', seen: [] });
    expect(await call('DELETE', '/api/v1/suites/1')).toEqual({
      status: 404,
      by: 'not found',
      seen: ['suites', 'runs'],
    });
    expect(await call('POST', '/api/v1/suites/1/fail')).toEqual({
      status: 500,
      by: 'error handler',
      seen: ['suites'],
    });
  });

  it('refuses a contract path outside /api/v1/<resource>', () => {
    const stray = c.router({ get: { method: 'GET', path: '/api/v1/:id', responses: served } });
    expect(() => resourceRouters().routerFor(stray)).toThrow('/api/v1/:id');
    const unversioned = c.router({ get: { method: 'GET', path: '/tags', responses: served } });
    expect(() => resourceRouters().routerFor(unversioned)).toThrow('/tags');
  });
});
