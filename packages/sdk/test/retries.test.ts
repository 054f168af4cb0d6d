import { HttpResponse, http } from 'msw';
import { describe, expect, it } from 'vitest';
import { ConnectionError, InternalServerError, RateLimitError } from '../src/index.js';
import { BASE_URL, recordRequests, useMockApi } from './helpers.js';

const { api, server, client } = useMockApi();
const seen = recordRequests(server);

/** Answers the first `times` requests to `path` with `status` and `headers`, then falls through. */
const failFirst = (path: string, times: number, status: number, headers: Record<string, string> = {}) => {
  let n = 0;
  return http.all(`${BASE_URL}${path}`, () => {
    n += 1;
    if (n > times) return undefined;
    return HttpResponse.json({ detail: 'try again' }, { status, headers });
  });
};

const timed = async <T>(fn: () => Promise<T>) => {
  const started = performance.now();
  const value = await fn();
  return { value, ms: performance.now() - started };
};

describe('retries', () => {
  it('honours retry-after-ms instead of the backoff', async () => {
    server.use(failFirst('/api/v1/tags', 1, 429, { 'retry-after-ms': '150' }));
    const { ms } = await timed(() => client().tags.list());
    expect(seen).toHaveLength(2);
    expect(ms).toBeGreaterThanOrEqual(140);
    expect(ms).toBeLessThan(370); // the first backoff would be at least 375 ms
  });

  it('honours Retry-After in seconds (0 means now)', async () => {
    server.use(api.scenarios.rateLimited({ retryAfter: 0, times: 2 }));
    const { ms } = await timed(() => client().tags.list());
    expect(seen).toHaveLength(3);
    expect(ms).toBeLessThan(300);
  });

  it('ignores Retry-After above 60 s and backs off instead', async () => {
    server.use(failFirst('/api/v1/tags', 1, 503, { 'retry-after': '3600' }));
    const { ms } = await timed(() => client().tags.list());
    expect(seen).toHaveLength(2);
    expect(ms).toBeGreaterThanOrEqual(370);
    expect(ms).toBeLessThan(1_500);
  });

  it('gives up after maxRetries with the last error', async () => {
    server.use(api.scenarios.rateLimited());
    await expect(client({ maxRetries: 1 }).tags.list()).rejects.toBeInstanceOf(RateLimitError);
    expect(seen).toHaveLength(2);
    seen.length = 0;
    await expect(client().tags.list({}, { maxRetries: 0 })).rejects.toBeInstanceOf(RateLimitError);
    expect(seen).toHaveLength(1);
  });

  it('retries network errors', async () => {
    server.use(api.scenarios.flaky({ failTimes: 1, status: 'network' }));
    await expect(client().tags.list()).resolves.toMatchObject({ total: 0 });
    expect(seen).toHaveLength(2);
  });

  it('retries 409 (a concurrent request with the same key) and 408', async () => {
    server.use(
      failFirst('/api/v1/tags', 1, 409, { 'retry-after': '0' }),
      failFirst('/api/v1/workspaces', 1, 408, { 'retry-after': '0' }),
    );
    await client().tags.list();
    await client().workspaces.list();
    expect(seen).toHaveLength(4);
  });

  it('does not retry 4xx such as 400 and 422, nor when x-should-retry is false', async () => {
    server.use(api.mocks.tags.list.error(400));
    await expect(client().tags.list()).rejects.toMatchObject({ status: 400 });
    server.use(failFirst('/api/v1/workspaces', 1, 503, { 'x-should-retry': 'false' }));
    await expect(client().workspaces.list()).rejects.toBeInstanceOf(InternalServerError);
    expect(seen).toHaveLength(2);
  });
});

describe('idempotency keys', () => {
  it('POST sends one generated key and reuses it on every retry', async () => {
    server.use(api.scenarios.flaky({ failTimes: 2 }));
    const tag = await client().tags.create({ name: 'Escalated' });
    expect(tag.name).toBe('Escalated');
    const keys = seen.map((r) => r.headers.get('idempotency-key'));
    expect(keys).toHaveLength(3);
    expect(keys[0]).toMatch(/^[0-9a-f-]{36}$/);
    expect(new Set(keys).size).toBe(1);
  });

  it('each call gets its own key; PATCH gets one too', async () => {
    const agent = await client().agents.create({ name: 'A', call_type: 'inbound', call_medium: 'phone' });
    await client().agents.create({ name: 'B', call_type: 'inbound', call_medium: 'phone' });
    await client().agents.update(agent.id, { name: 'A2' });
    const keys = seen.map((r) => r.headers.get('idempotency-key'));
    expect(keys.every(Boolean)).toBe(true);
    expect(new Set(keys).size).toBe(3);
  });

  it('a caller-chosen key is sent as is', async () => {
    await client().tags.create({ name: 'Mine' }, { idempotencyKey: 'order-42' });
    expect(seen[0]?.headers.get('idempotency-key')).toBe('order-42');
  });

  it('POST without a key is never retried', async () => {
    server.use(api.scenarios.flaky({ failTimes: 1 }));
    await expect(client().tags.create({ name: 'x' }, { idempotencyKey: null })).rejects.toBeInstanceOf(
      InternalServerError,
    );
    expect(seen).toHaveLength(1);
    expect(seen[0]?.headers.has('idempotency-key')).toBe(false);
  });

  it('public POST routes (login, signup, refresh) send no key and are not retried', async () => {
    server.use(api.scenarios.flaky({ failTimes: 1, status: 'network' }));
    await expect(
      client().auth.login({ email: 'a@example.test', password: 'long enough' }),
    ).rejects.toBeInstanceOf(ConnectionError);
    expect(seen).toHaveLength(1);
    expect(seen[0]?.headers.has('idempotency-key')).toBe(false);
  });

  it('GET and DELETE carry no key', async () => {
    const tag = await client().tags.create({ name: 'Gone' });
    seen.length = 0;
    await client().tags.list();
    await client().tags.delete(tag.id);
    expect(seen.map((r) => r.headers.has('idempotency-key'))).toEqual([false, false]);
  });
});
