import { describe, expect, it, vi } from 'vitest';
import { AuthenticationError, type Tokens, VoiceEval, VoiceEvalError } from '../src/index.js';
import { BASE_URL, recordRequests, useMockApi } from './helpers.js';

const { api, server, client } = useMockApi();
const seen = recordRequests(server);

const countCalls = (path: string) => seen.filter((r) => r.url.pathname === path).length;

/** `tags.list` accepts only `Bearer <token>`; everything else is 401. */
const acceptOnly = (token: string) =>
  api.mocks.tags.list(({ request }) =>
    request.headers.get('authorization') === `Bearer ${token}`
      ? { status: 200, body: { items: [], total: 0, page: 1, page_size: 20 } }
      : { status: 401, body: { code: 'unauthenticated', detail: 'expired' } },
  );

const session = (n: number, expiresIn = 900) =>
  api.fixtures.session({ access_token: `access-${n}`, refresh_token: `refresh-${n}`, expires_in: expiresIn });

describe('API keys', () => {
  it('sends X-API-Key and no bearer token', async () => {
    await client({ apiKey: 've_live_abc' }).tags.list();
    expect(seen[0]?.headers.get('x-api-key')).toBe('ve_live_abc');
    expect(seen[0]?.headers.has('authorization')).toBe(false);
  });

  it('public routes carry no credentials', async () => {
    await client().auth.config();
    expect(seen[0]?.headers.has('x-api-key')).toBe(false);
  });

  it('rejects mixed or incomplete credentials and a missing base URL', () => {
    expect(() => new VoiceEval({ baseUrl: BASE_URL, apiKey: 'k', accessToken: 't' })).toThrow(VoiceEvalError);
    expect(() => new VoiceEval({ baseUrl: BASE_URL, email: 'a@example.test' })).toThrow(/together/);
    vi.stubEnv('VOICE_EVAL_BASE_URL', '');
    expect(() => new VoiceEval({ apiKey: 'k' })).toThrow(/baseUrl/);
    vi.unstubAllEnvs();
  });
});

describe('e-mail and password', () => {
  it('logs in lazily, once for concurrent requests, and reports the tokens', async () => {
    const onTokens = vi.fn<(tokens: Tokens) => void>();
    server.use(api.mocks.auth.login(session(1)), acceptOnly('access-1'));
    const c = new VoiceEval({
      baseUrl: BASE_URL,
      email: 'ada@example.test',
      password: 'correct horse',
      onTokens,
      logLevel: 'off',
    });
    expect(seen).toHaveLength(0);
    await Promise.all([c.tags.list(), c.tags.list(), c.tags.list()]);
    expect(countCalls('/api/v1/auth/login')).toBe(1);
    expect(onTokens).toHaveBeenCalledTimes(1);
    expect(onTokens.mock.calls[0]?.[0]).toMatchObject({
      accessToken: 'access-1',
      refreshToken: 'refresh-1',
      expiresIn: 900,
    });
  });

  it('a failed login rejects the request with AuthenticationError', async () => {
    server.use(api.mocks.auth.login.error(401));
    const c = client({ apiKey: undefined, email: 'ada@example.test', password: 'wrong password' });
    await expect(c.tags.list()).rejects.toBeInstanceOf(AuthenticationError);
  });

  it('renews a session shortly before its access token expires', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    try {
      server.use(
        api.mocks.auth.login(session(1)),
        api.mocks.auth.refresh(session(2)),
        acceptOnly('access-1'),
      );
      const c = client({ apiKey: undefined, email: 'ada@example.test', password: 'correct horse' });
      await c.tags.list();
      vi.setSystemTime(Date.now() + 880_000); // 20 s before the 900 s token expires
      server.use(acceptOnly('access-2'));
      await c.tags.list();
      expect(countCalls('/api/v1/auth/refresh')).toBe(1);
      expect(countCalls('/api/v1/tags')).toBe(2);
    } finally {
      vi.useRealTimers();
    }
  });
});

describe('access and refresh tokens', () => {
  it('two concurrent 401s share one refresh, then both succeed', async () => {
    const onTokens = vi.fn<(tokens: Tokens) => void>();
    let refreshBody: unknown;
    server.use(
      api.mocks.auth.refresh(async ({ request }) => {
        refreshBody = await request.json();
        await new Promise((r) => setTimeout(r, 20));
        return { status: 200, body: session(2) };
      }),
      acceptOnly('access-2'),
    );
    const c = client({ apiKey: undefined, accessToken: 'stale', refreshToken: 'refresh-1', onTokens });
    const [a, b] = await Promise.all([c.tags.list(), c.tags.list()]);
    expect(a.total).toBe(0);
    expect(b.total).toBe(0);
    expect(countCalls('/api/v1/auth/refresh')).toBe(1);
    expect(refreshBody).toEqual({ refresh_token: 'refresh-1' });
    expect(countCalls('/api/v1/tags')).toBe(4);
    expect(onTokens).toHaveBeenCalledTimes(1);
    expect(onTokens.mock.calls[0]?.[0]).toMatchObject({ accessToken: 'access-2', refreshToken: 'refresh-2' });
  });

  it('retries only once: a 401 after refreshing is thrown', async () => {
    server.use(api.mocks.auth.refresh(session(2)), acceptOnly('never'));
    const c = client({ apiKey: undefined, accessToken: 'stale', refreshToken: 'refresh-1' });
    await expect(c.tags.list()).rejects.toBeInstanceOf(AuthenticationError);
    expect(countCalls('/api/v1/tags')).toBe(2);
    expect(countCalls('/api/v1/auth/refresh')).toBe(1);
  });

  it('a rejected refresh surfaces the original 401', async () => {
    server.use(api.mocks.auth.refresh.error(401, { detail: 'refresh token reused' }), acceptOnly('never'));
    const c = client({ apiKey: undefined, accessToken: 'stale', refreshToken: 'used' });
    await expect(c.tags.list()).rejects.toMatchObject({ status: 401, detail: 'expired' });
    expect(countCalls('/api/v1/tags')).toBe(1);
  });

  it('falls back to logging in when the refresh is rejected and a password is known', async () => {
    server.use(api.mocks.auth.refresh.error(401), api.mocks.auth.login(session(3)), acceptOnly('access-3'));
    const c = client({
      apiKey: undefined,
      accessToken: 'stale',
      refreshToken: 'used',
      email: 'ada@example.test',
      password: 'correct horse',
    });
    await expect(c.tags.list()).resolves.toMatchObject({ total: 0 });
    expect(countCalls('/api/v1/auth/login')).toBe(1);
  });

  it('an access token alone cannot be renewed: the 401 is thrown', async () => {
    server.use(acceptOnly('never'));
    await expect(client({ apiKey: undefined, accessToken: 'stale' }).tags.list()).rejects.toBeInstanceOf(
      AuthenticationError,
    );
    expect(seen).toHaveLength(1);
  });
});

describe('workspaces and copies', () => {
  it('sends X-Workspace-Id from the client, a copy, or one call', async () => {
    const base = client({ workspaceId: 'ws-a' });
    await base.tags.list();
    await base.withWorkspace('ws-b').tags.list();
    await base.tags.list({}, { workspaceId: 'ws-c' });
    await client().tags.list();
    expect(seen.map((r) => r.headers.get('x-workspace-id'))).toEqual(['ws-a', 'ws-b', 'ws-c', null]);
    expect(base.withWorkspace('ws-b').workspaceId).toBe('ws-b');
    expect(base.workspaceId).toBe('ws-a');
  });

  it('copies share the session, so one refresh serves both', async () => {
    server.use(api.mocks.auth.refresh(session(2)), acceptOnly('access-2'));
    const c = client({ apiKey: undefined, accessToken: 'stale', refreshToken: 'refresh-1' });
    const other = c.withWorkspace('ws-b');
    await Promise.all([c.tags.list(), other.tags.list()]);
    await other.withOptions({ maxRetries: 0 }).tags.list();
    expect(countCalls('/api/v1/auth/refresh')).toBe(1);
  });

  it('withOptions with new credentials starts a new session', async () => {
    const c = client({ apiKey: 'first' }).withOptions({
      apiKey: 'second',
      defaultHeaders: { 'x-trace': '1' },
    });
    await c.tags.list();
    expect(seen[0]?.headers.get('x-api-key')).toBe('second');
    expect(seen[0]?.headers.get('x-trace')).toBe('1');
  });
});
