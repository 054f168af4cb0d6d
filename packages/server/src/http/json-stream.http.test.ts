import type { AddressInfo } from 'node:net';
import express from 'express';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectProblem } from '../../test/access-rules.js';
import { callRows, createSchema, importCsv } from '../../test/factories/call-imports.js';
import { createHarness, type Harness } from '../../test/harness.js';
import { streamJsonDocument } from './json-stream.js';
import { errorHandler } from './problem.js';

let h: Harness;
beforeAll(async () => {
  h = await createHarness();
});

describe('GET /call-imports/{id}/row-ids validates before the first byte', () => {
  it('q=%00 is a 422 problem, not a 200 cut short', async () => {
    const imported = await importCsv(h, h, await createSchema(h, h), callRows(3));
    const headers = await h.as('OWNER');
    const ok = await h.request('GET', `/api/v1/call-imports/${imported.id}/row-ids?q=conv`, { headers });
    expect(ok.status).toBe(200);
    expect(ok.body.total).toBe(3);
    const none = await h.request('GET', `/api/v1/call-imports/${imported.id}/row-ids?q=nothing`, { headers });
    expect(none.body).toEqual({ ids: [], total: 0 });
    const reply = await h.request('GET', `/api/v1/call-imports/${imported.id}/row-ids?q=%00`, { headers });
    expectProblem(reply, 422, 'validation_failed');
    expect(reply.body.errors).toEqual([{ path: 'query.q', message: expect.stringContaining('U+0000') }]);
  });
});

/** A bare app serving one streamed document from `produce`, with the server's error handler. */
const serve = async (produce: () => AsyncGenerator<string>) => {
  const app = express();
  app.get('/doc', async (req, res, next) => {
    try {
      (await streamJsonDocument(req, res, produce())).pipe(res.status(200));
    } catch (error) {
      next(error);
    }
  });
  app.use(errorHandler);
  const server = app.listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  afterAll(() => new Promise((resolve) => server.close(resolve)));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}/doc`;
};

describe('streamJsonDocument', () => {
  it('a failure before the first chunk is an ordinary problem response', async () => {
    const url = await serve(async function* () {
      await Promise.reject(new Error('first query failed'));
      yield 'never';
    });
    const res = await fetch(url);
    expect(res.status).toBe(500);
    expect(res.headers.get('content-type')).toMatch(/^application\/problem\+json/);
  });

  it('a failure after the first byte ends the response detectably: the body never completes', async () => {
    const url = await serve(async function* () {
      yield '{"ids":["a"';
      await new Promise((resolve) => setTimeout(resolve, 10));
      throw new Error('second query failed');
    });
    const res = await fetch(url);
    expect(res.status).toBe(200);
    // the connection is destroyed mid-document: reading the body fails rather than yielding `{"ids":["a"`
    await expect(res.text()).rejects.toThrow();
  });

  it('a document that completes is read whole', async () => {
    const url = await serve(async function* () {
      yield '{"ids":["a"';
      yield ',"b"],"total":2}';
    });
    const res = await fetch(url);
    expect(await res.json()).toEqual({ ids: ['a', 'b'], total: 2 });
  });
});
