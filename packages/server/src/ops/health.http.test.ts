import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import type { Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import knex from 'knex';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { withDatabase } from '../../test/global-setup.js';
import { createHarness, type Harness } from '../../test/harness.js';
import { createTestDb } from '../../test/setup-db.js';
import { createDb, type Db } from '../db/knex.js';
import { MIGRATION_NAMES } from '../db/migrate.js';
import { createVoiceEvalServer, type VoiceEvalServerOptions } from '../server.js';

type Line = Record<string, any>;
/** Clean-ups of the servers and databases tests make for themselves, last made first. */
const cleanups: Array<() => Promise<unknown>> = [];
afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
});
const lines: Line[] = [];
let h: Harness;
beforeAll(async () => {
  const stream = { write: (line: string) => lines.push(JSON.parse(line)) };
  h = await createHarness({ logger: pino({ level: 'info' }, stream) });
});

const get = async (url: string, headers: Record<string, string> = {}) => {
  const res = await fetch(url, { headers });
  const text = await res.text();
  return { status: res.status, headers: res.headers, body: text ? JSON.parse(text) : undefined };
};

/** An empty database no migration has touched, dropped after the file. */
const emptyDb = async (): Promise<Db> => {
  const config = inject('testDb');
  if (config.kind === 'pglite') {
    const db = createDb({ kind: 'pglite', instance: new PGlite() });
    cleanups.push(() => db.destroy().catch(() => undefined));
    return db;
  }
  const name = `voice_eval_empty_${randomBytes(6).toString('hex')}`;
  const admin = knex({ client: 'pg', connection: config.url, pool: { min: 0, max: 1 } });
  await admin.raw(`create database ${name}`);
  const db = createDb({ kind: 'postgres', url: withDatabase(config.url, name) });
  cleanups.push(async () => {
    await db.destroy();
    await admin.raw(`drop database if exists ${name} with (force)`);
    await admin.destroy();
  });
  return db;
};

/** A server on `db` listening without `start()`: no migrations, no workers until the test says so. */
const unstarted = async (db: Db, options: VoiceEvalServerOptions = {}) => {
  const dataDir = mkdtempSync(join(tmpdir(), 'voice-eval-test-'));
  const server = createVoiceEvalServer({
    nodeEnv: 'test',
    dataDir,
    jwtSecret: 'test-secret-that-is-at-least-32-characters-long',
    encryptionKey: Buffer.alloc(32, 7).toString('base64'),
    logger: pino({ level: 'silent' }),
    db,
    env: {},
    ...options,
  });
  const http = await new Promise<Server>((resolve) => {
    const s = server.app.listen(0, '127.0.0.1', () => resolve(s));
  });
  const address = http.address();
  const url = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
  cleanups.push(async () => {
    http.closeAllConnections();
    await new Promise((resolve) => http.close(resolve));
    await server.deps.workers.stop();
    rmSync(dataDir, { recursive: true, force: true });
  });
  return { server, url };
};

describe('GET /healthz', () => {
  it('answers 200 without credentials, uncached, and stays out of the request log at info', async () => {
    const reply = await h.request('GET', '/healthz');
    expect(reply.status).toBe(200);
    expect(reply.body).toEqual({ status: 'ok' });
    expect(reply.headers.get('cache-control')).toBe('no-store');
    const api = await h.request('GET', '/api/v1/auth/config');
    await expect.poll(() => lines.some((l) => l.reqId === api.headers.get('x-request-id'))).toBe(true);
    expect(lines.filter((l) => l.req?.url === '/healthz')).toEqual([]);
  });
});

describe('GET /readyz', () => {
  it('answers 200 with every check ok on a started server, and no tenant data', async () => {
    const reply = await h.request('GET', '/readyz');
    expect(reply.status).toBe(200);
    expect(reply.body).toEqual({
      status: 'ready',
      checks: { database: 'ok', migrations: 'ok', workers: 'ok' },
      failing: [],
    });
    expect(reply.headers.get('cache-control')).toBe('no-store');
    expect(JSON.stringify(reply.body)).not.toContain(h.organizationId);
    expect(lines.filter((l) => l.req?.url === '/readyz')).toEqual([]);
  });

  it('answers 503 naming migrations while one of this build is not applied, running while the lock is held', async () => {
    const newest = MIGRATION_NAMES.at(-1)!;
    const [row] = await h.db('knex_migrations').where({ name: newest });
    await h.db('knex_migrations').where({ name: newest }).delete();
    try {
      const pending = await h.request('GET', '/readyz');
      expect(pending.status).toBe(503);
      expect(pending.body).toEqual({
        status: 'not_ready',
        checks: { database: 'ok', migrations: 'pending', workers: 'ok' },
        failing: ['migrations'],
      });
      await h.db('knex_migrations_lock').update({ is_locked: 1 });
      const running = await h.request('GET', '/readyz');
      expect(running.status).toBe(503);
      expect(running.body.checks.migrations).toBe('running');
      expect(running.body.failing).toEqual(['migrations']);
    } finally {
      await h.db('knex_migrations_lock').update({ is_locked: 0 });
      await h.db('knex_migrations').insert(row);
    }
    // another instance migrating a newer build does not take this one (whose schema is applied) out
    await h.db('knex_migrations_lock').update({ is_locked: 1 });
    try {
      expect((await h.request('GET', '/readyz')).status).toBe(200);
    } finally {
      await h.db('knex_migrations_lock').update({ is_locked: 0 });
    }
  });

  it('follows a server through its life: unmigrated, migrating, ready, workers stopped, database gone', async () => {
    const db = await emptyDb();
    const { server, url } = await unstarted(db);

    const before = await get(`${url}/readyz`);
    expect(before.status).toBe(503);
    expect(before.body).toEqual({
      status: 'not_ready',
      checks: { database: 'ok', migrations: 'pending', workers: 'stopped' },
      failing: ['migrations', 'workers'],
    });

    // a check made while this instance migrates says so, however the migration goes on
    const starting = server.start();
    const during = await server.deps.readiness.check();
    expect(during.checks.migrations).toBe('running');
    expect(during.failing).toContain('migrations');
    await starting;

    const ready = await get(`${url}/readyz`);
    expect(ready.status).toBe(200);
    expect(ready.body.checks).toEqual({ database: 'ok', migrations: 'ok', workers: 'ok' });

    await server.deps.workers.stop();
    const stopped = await get(`${url}/readyz`);
    expect(stopped.status).toBe(503);
    expect(stopped.body).toEqual({
      status: 'not_ready',
      checks: { database: 'ok', migrations: 'ok', workers: 'stopped' },
      failing: ['workers'],
    });

    await db.destroy();
    const down = await get(`${url}/readyz`);
    expect(down.status).toBe(503);
    expect(down.body.checks).toMatchObject({ database: 'failing', migrations: 'unknown' });
    expect(down.body.failing).toEqual(['database', 'migrations', 'workers']);
    // the process is still up
    expect((await get(`${url}/healthz`)).status).toBe(200);
  });

  it('counts an instance without workers (workerConcurrency 0) as ready', async () => {
    const testDb = await createTestDb();
    cleanups.push(() => testDb.destroy());
    const { server, url } = await unstarted(testDb.db, { workerConcurrency: 0 });
    await server.start();
    const reply = await get(`${url}/readyz`);
    expect(reply.status).toBe(200);
    expect(reply.body.checks.workers).toBe('disabled');
  });
});

describe('the operations endpoints', () => {
  it('are not under auth: credentials are ignored and invalid ones change nothing', async () => {
    const reply = await h.request('GET', '/readyz', { headers: { authorization: 'Bearer not-a-token' } });
    expect(reply.status).toBe(200);
    expect((await h.request('HEAD', '/healthz')).status).toBe(200);
    // other methods are not served
    expect((await h.request('POST', '/healthz')).status).toBe(404);
  });

  it('leave /metrics unserved while metrics are off (the default)', async () => {
    const reply = await h.request('GET', '/metrics');
    expect(reply.status).toBe(404);
  });
});
