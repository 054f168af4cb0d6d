import { describe, expect, it } from 'vitest';
import { ApiPromise } from '../src/index.js';
import { useMockApi } from './helpers.js';

const { api, client } = useMockApi();

describe('ApiPromise', () => {
  it('awaits to the data and also works with then/catch/finally', async () => {
    const tag = api.db.tags.create(api.fixtures.tag({ name: 'Billing' }));
    const call = client().tags.list();
    expect(call).toBeInstanceOf(ApiPromise);
    expect(call).toBeInstanceOf(Promise);
    const names = await call.then((page) => page.items.map((t) => t.name));
    expect(names).toEqual(['Billing']);
    let finished = false;
    await client()
      .tags.delete(tag.id)
      .finally(() => {
        finished = true;
      });
    expect(finished).toBe(true);
    const caught = await client()
      .tags.delete(tag.id)
      .catch((e: unknown) => (e as { status: number }).status);
    expect(caught).toBe(404);
  });

  it('withResponse returns the data, the response and the request id', async () => {
    const { data, response, requestId } = await client().auth.me().withResponse();
    expect(data.principal_type).toBe('api_key');
    expect(response.headers.get('content-type')).toBe('application/json');
    expect(requestId).toBe(response.headers.get('x-request-id'));
  });

  it('asResponse returns the raw response; a 204 resolves to undefined', async () => {
    const tag = api.db.tags.create(api.fixtures.tag());
    const response = await client().tags.delete(tag.id).asResponse();
    expect(response.status).toBe(204);
    const again = api.db.tags.create(api.fixtures.tag());
    await expect(client().tags.delete(again.id)).resolves.toBeUndefined();
  });
});
