import { delay } from 'msw';
import { describe, expect, it } from 'vitest';
import { TimeoutError, UserAbortError } from '../src/index.js';
import { recordRequests, useMockApi } from './helpers.js';

const { api, server, client } = useMockApi();
const seen = recordRequests(server);
const emptyPage = { items: [], total: 0, page: 1, page_size: 20 };

/** `tags.list` answers after `slowMs` for the first `slowTimes` requests, then at once. */
const slowFirst = (slowTimes: number, slowMs: number) => {
  let n = 0;
  return api.mocks.tags.list(async () => {
    n += 1;
    if (n <= slowTimes) await delay(slowMs);
    return { status: 200, body: emptyPage };
  });
};

describe('timeouts', () => {
  it('an attempt slower than the timeout fails with TimeoutError', async () => {
    server.use(slowFirst(5, 300));
    const error = await client({ timeout: 50, maxRetries: 0 })
      .tags.list()
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TimeoutError);
    expect((error as Error).message).toBe('Request timed out after 50 ms.');
  });

  it('the timeout applies per attempt: a timed-out attempt is retried', async () => {
    server.use(slowFirst(1, 300));
    await expect(client({ timeout: 100 }).tags.list()).resolves.toMatchObject({ total: 0 });
    expect(seen).toHaveLength(2);
  });

  it('a per-call timeout overrides the client one', async () => {
    server.use(slowFirst(5, 200));
    await expect(client().tags.list({}, { timeout: 30, maxRetries: 0 })).rejects.toBeInstanceOf(TimeoutError);
  });
});

describe('signal', () => {
  it('aborting a call in flight rejects with UserAbortError', async () => {
    server.use(slowFirst(5, 500));
    const controller = new AbortController();
    const call = client().tags.list({}, { signal: controller.signal });
    setTimeout(() => controller.abort(), 20);
    await expect(call).rejects.toBeInstanceOf(UserAbortError);
  });

  it('an already aborted signal sends nothing', async () => {
    await expect(client().tags.list({}, { signal: AbortSignal.abort() })).rejects.toBeInstanceOf(
      UserAbortError,
    );
    expect(seen).toHaveLength(0);
  });

  it('aborting during a retry wait stops the retries', async () => {
    server.use(api.mocks.tags.list.error(503));
    const controller = new AbortController();
    const call = client().tags.list({}, { signal: controller.signal });
    setTimeout(() => controller.abort(), 100);
    await expect(call).rejects.toBeInstanceOf(UserAbortError);
    expect(seen).toHaveLength(1);
  });
});
