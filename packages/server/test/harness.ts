import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Role, Session } from '@voice-eval/contract';
import { VoiceEval } from '@voice-eval/sdk';
import pino from 'pino';
import type { RequestContext } from '../src/context.js';
import { generateKey } from '../src/modules/api-keys/service.js';
import { insertMembership, insertUser } from '../src/modules/auth/repo.js';
import { signup } from '../src/modules/auth/service.js';
import { signAccessToken } from '../src/modules/auth/tokens.js';
import { createVoiceEvalServer, type VoiceEvalServer, type VoiceEvalServerOptions } from '../src/server.js';
import { atFileEnd } from './file-end.js';
import { createTestDb, type TestDb } from './setup-db.js';

export type Headers = Record<string, string>;

export type Reply<T = any> = { status: number; headers: globalThis.Headers; body: T };

/** One organization of the test database, with a way to act as each role in it. */
export type Tenant = {
  organizationId: string;
  workspaceId: string;
  owner: Session;
  /** Bearer headers of a user holding `role` in this organization (created on first use). */
  as(role: Role): Promise<Headers>;
  /** Headers carrying a new organization API key. */
  apiKey(): Promise<Headers>;
  /** A typed SDK client acting as `role` (`as(role)`'s token; one per role). @default 'MEMBER' */
  client(role?: Role): Promise<VoiceEval>;
};

export type Harness = Tenant & {
  url: string;
  server: VoiceEvalServer;
  db: TestDb['db'];
  /** A new, unrelated organization in the same database (for isolation tests). */
  createTenant(): Promise<Tenant>;
  /** Real HTTP to the running server; JSON in and out. */
  request<T = any>(
    method: string,
    path: string,
    options?: { headers?: Headers; body?: unknown },
  ): Promise<Reply<T>>;
};

const emailFor = (label: string) => `${label}-${randomUUID().slice(0, 8)}@example.test`;

/**
 * A typed SDK client of the server at `url` sending what `headers` carry: a bearer token or an API
 * key, and a workspace. No retries, so a failed request throws its problem at once; no logs.
 */
export const clientWith = (url: string, headers: Headers): VoiceEval => {
  const { authorization, 'x-api-key': apiKey, 'x-workspace-id': workspaceId, ...rest } = headers;
  const credentials = apiKey ? { apiKey } : { accessToken: authorization?.replace(/^Bearer /, '') };
  return new VoiceEval({
    baseUrl: url,
    ...credentials,
    workspaceId,
    defaultHeaders: rest,
    maxRetries: 0,
    logLevel: 'off',
  });
};

/**
 * Starts the real server over real HTTP on its own migrated database, seeds one organization
 * and stops everything after the file's tests (through `atFileEnd`, so also when called from a
 * `beforeAll`). Options override the server's configuration.
 */
export const createHarness = async (options: VoiceEvalServerOptions = {}): Promise<Harness> => {
  const testDb = await createTestDb();
  const dataDir = mkdtempSync(join(tmpdir(), 'voice-eval-test-'));
  const server = createVoiceEvalServer({
    nodeEnv: 'test',
    dataDir,
    jwtSecret: 'test-secret-that-is-at-least-32-characters-long',
    encryptionKey: Buffer.alloc(32, 7).toString('base64'),
    authRateLimitPerMinute: 100_000,
    // the lowest scrypt cost: a signup per tenant, thousands per run
    passwordHashCost: 1024,
    logger: pino({ level: process.env.TEST_LOG ?? 'silent' }),
    db: testDb.db,
    env: {},
    // the platforms' APIs at a closed loopback port: nothing a test does reaches beyond loopback
    vapiApiUrl: 'http://127.0.0.1:9',
    retellApiUrl: 'http://127.0.0.1:9',
    twilioApiUrl: 'http://127.0.0.1:9',
    elevenlabsApiUrl: 'http://127.0.0.1:9',
    ...options,
  });
  const { url } = await server.listen(0);
  atFileEnd(async () => {
    await server.close();
    await testDb.destroy();
    rmSync(dataDir, { recursive: true, force: true });
  });
  const { deps } = server;

  const createTenant = async (): Promise<Tenant> => {
    const owner = await signup(deps, {
      email: emailFor('owner'),
      password: 'correct horse battery',
      name: 'Ada Owner',
    });
    const organizationId = owner.user.organization_id;
    const ws = await deps
      .db('workspaces')
      .where({ organization_id: organizationId, is_default: true })
      .first('id');
    const roleHeaders = new Map<Role, Promise<Headers>>();
    roleHeaders.set('OWNER', Promise.resolve({ authorization: `Bearer ${owner.access_token}` }));
    const as = (role: Role) => {
      if (!roleHeaders.has(role)) {
        roleHeaders.set(
          role,
          (async () => {
            const user = await insertUser(deps.db, {
              email: emailFor(role.toLowerCase()),
              name: role,
              first_name: role,
              last_name: '',
              password_hash: null,
              email_is_placeholder: false,
            });
            await insertMembership(deps.db, organizationId, user.id, role);
            const token = await signAccessToken(
              deps.config.jwtSecret,
              { userId: user.id, organizationId },
              900,
              new Date(),
            );
            return { authorization: `Bearer ${token}` };
          })(),
        );
      }
      return roleHeaders.get(role)!;
    };
    const apiKey = async () => {
      const ctx: RequestContext = {
        principal: { kind: 'user', userId: owner.user.id, email: owner.user.email },
        organizationId,
        plan: 'free',
        role: 'OWNER',
        workspaceId: ws.id,
        requestId: 'test',
      };
      const created = await generateKey(deps, ctx, { name: 'test key' });
      return { 'x-api-key': created.key };
    };
    const clients = new Map<Role, Promise<VoiceEval>>();
    const client = (role: Role = 'MEMBER') => {
      let made = clients.get(role);
      if (!made) {
        made = as(role).then((headers) => clientWith(url, headers));
        clients.set(role, made);
      }
      return made;
    };
    return { organizationId, workspaceId: ws.id, owner, as, apiKey, client };
  };

  const request = async <T>(
    method: string,
    path: string,
    options: { headers?: Headers; body?: unknown } = {},
  ) => {
    const res = await fetch(`${url}${path}`, {
      method,
      headers: {
        ...(options.body !== undefined ? { 'content-type': 'application/json' } : {}),
        ...options.headers,
      },
      body:
        options.body === undefined
          ? undefined
          : typeof options.body === 'string'
            ? options.body
            : JSON.stringify(options.body),
    });
    const text = await res.text();
    let body: unknown = text;
    try {
      body = text ? JSON.parse(text) : undefined;
    } catch {}
    return { status: res.status, headers: res.headers, body: body as T };
  };

  const tenant = await createTenant();
  return { ...tenant, url, server, db: deps.db, createTenant, request };
};
