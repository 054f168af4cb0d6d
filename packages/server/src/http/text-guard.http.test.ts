import { beforeAll, describe, expect, it } from 'vitest';
import { expectProblem } from '../../test/access-rules.js';
import { upload } from '../../test/factories/call-imports.js';
import { createHarness, type Harness, type Headers } from '../../test/harness.js';
import { MAX_DEPTH } from './text-guard.js';

let h: Harness;
let owner: Headers;
beforeAll(async () => {
  h = await createHarness();
  owner = await h.as('OWNER');
});

const fieldsOf = (body: { errors?: Array<{ path: string }> }) => (body.errors ?? []).map((e) => e.path);
const count = async (table: string) =>
  Number((await h.db(table).where({ organization_id: h.organizationId }).count({ n: '*' }))[0]!.n);

describe('text no database can store is 422 naming the field, everywhere', () => {
  it('U+0000 in a JSON string', async () => {
    const reply = await h.request('POST', '/api/v1/tags', { headers: owner, body: '{"name":"a\\u0000b"}' });
    expectProblem(reply, 422, 'validation_failed');
    expect(fieldsOf(reply.body)).toEqual(['body.name']);
    expect(await count('tags')).toBe(0);
  });

  it('U+0000 in a query parameter', async () => {
    const reply = await h.request('GET', '/api/v1/tags?q=%00', { headers: owner });
    expectProblem(reply, 422, 'validation_failed');
    expect(fieldsOf(reply.body)).toEqual(['query.q']);
  });

  it('U+0000 in a path parameter', async () => {
    const reply = await h.request('DELETE', '/api/v1/tags/a%00b', { headers: owner });
    expectProblem(reply, 422, 'validation_failed');
    expect(fieldsOf(reply.body)).toEqual(['params.tag_id']);
  });

  it('a lone surrogate in a value stored as JSON', async () => {
    const reply = await h.request('POST', '/api/v1/scenarios', {
      headers: owner,
      body: '{"name":"S","required_info":"\\ud800x"}',
    });
    expectProblem(reply, 422, 'validation_failed');
    expect(fieldsOf(reply.body)).toEqual(['body.required_info']);
    expect(await count('scenarios')).toBe(0);
  });

  it('U+0000 or a lone surrogate in a key, nested, names the key', async () => {
    const reply = await h.request('POST', '/api/v1/scenarios', {
      headers: owner,
      body: '{"name":"S","metadata":{"a\\u0000":1,"b":["ok","\\udc00"]}}',
    });
    expectProblem(reply, 422, 'validation_failed');
    expect(fieldsOf(reply.body).sort()).toEqual(['body.metadata.a\\u0000', 'body.metadata.b.1']);
  });

  it(`nesting past ${MAX_DEPTH} levels is 422 (and deep garbage never reaches a handler)`, async () => {
    const deep = `${'['.repeat(100_000)}${']'.repeat(100_000)}`;
    const reply = await h.request('POST', '/api/v1/scenarios', {
      headers: owner,
      body: `{"name":"S","metadata":{"x":${deep}}}`,
    });
    expectProblem(reply, 422, 'validation_failed');
    expect(fieldsOf(reply.body)[0]).toMatch(/^body\.metadata\.x(\.0)+$/);
    const query = await h.request('GET', `/api/v1/tags?${'q'}${'[a]'.repeat(3)}=1`, { headers: owner });
    expect(query.status).toBe(422);
  });

  it('U+0000 in a multipart text field (and in a file name: malformed, 400)', async () => {
    const csv = {
      field: 'file' as const,
      name: 'calls.csv',
      bytes: 'conversation_id\nc1\n',
      type: 'text/csv',
    };
    const field = await upload(h, owner, { dataset: 'd\0x' }, [csv]);
    expectProblem(field, 422, 'validation_failed');
    expect(fieldsOf(field.body)).toEqual(['body.dataset']);
    // NUL in a part header is malformed multipart before any guard sees it (multipart.http.test.ts)
    const name = await upload(h, owner, { dataset: 'd' }, [{ ...csv, name: 'a\0b.csv' }]);
    expectProblem(name, 400, 'bad_request');
    expect(await count('call_imports')).toBe(0);
  });

  it('well-formed text passes: surrogate pairs, other control characters, U+FFFF', async () => {
    const name = 'emoji 🎙️ \u0001 \uffff ok';
    const reply = await h.request('POST', '/api/v1/tags', { headers: owner, body: { name } });
    expect(reply.status, JSON.stringify(reply.body)).toBe(201);
    expect(reply.body.name).toBe(name);
    expect(
      (await h.request('GET', `/api/v1/tags?q=${encodeURIComponent('🎙️')}`, { headers: owner })).status,
    ).toBe(200);
  });
});

describe('the guard runs before the idempotency fingerprint', () => {
  it('a deeply nested body with an Idempotency-Key is 422, not a 500 from JSON.stringify', async () => {
    const body = `${'['.repeat(50_000)}${']'.repeat(50_000)}`;
    const reply = await h.request('POST', '/api/v1/tags', {
      headers: { ...owner, 'idempotency-key': 'deep' },
      body,
    });
    expectProblem(reply, 422, 'validation_failed');
  });
});
