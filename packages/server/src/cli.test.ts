import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import pino from 'pino';
import { afterEach, describe, expect, it } from 'vitest';
import { createTestDb } from '../test/setup-db.js';
import { createOrganization } from './modules/auth/service.js';
import { createVoiceEvalServer } from './server.js';

// the bin users run; in the workspace it must run the sources even after `pnpm build` wrote dist/
const bin = fileURLToPath(new URL('../bin/voice-eval.js', import.meta.url));
const packageDir = fileURLToPath(new URL('..', import.meta.url));
const { version } = JSON.parse(readFileSync(join(packageDir, 'package.json'), 'utf8'));
const children: ChildProcess[] = [];
afterEach(() => {
  for (const child of children.splice(0)) child.kill('SIGKILL');
});

const SECRETS = {
  VOICE_EVAL_JWT_SECRET: 'cli-test-secret-that-is-long-enough-to-use',
  VOICE_EVAL_ENCRYPTION_KEY: Buffer.alloc(32, 5).toString('base64'),
};

const run = (args: string[], env: Record<string, string> = {}) => {
  const child = spawn(process.execPath, [bin, ...args], {
    env: { ...process.env, NODE_ENV: 'development', DATABASE_URL: '', VOICE_EVAL_LOG_LEVEL: 'warn', ...env },
    cwd: packageDir,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.push(child);
  let [stdout, stderr] = ['', ''];
  child.stdout!.on('data', (chunk) => {
    stdout += chunk;
  });
  child.stderr!.on('data', (chunk) => {
    stderr += chunk;
  });
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return { child, exited, output: () => stdout + stderr, stdout: () => stdout, stderr: () => stderr };
};

/** Runs the bin to its end. */
const complete = async (args: string[], env: Record<string, string> = {}) => {
  const child = run(args, env);
  const code = await child.exited;
  return { code, stdout: child.stdout(), stderr: child.stderr() };
};

const dataDir = () => mkdtempSync(join(tmpdir(), 'voice-eval-cli-'));

describe('voice-eval CLI', () => {
  it('serve logs one server:listening line (JSON) with the URLs, and exits 0 on SIGTERM', async () => {
    const dir = dataDir();
    const server = run(['serve', '--port', '0', '--data-dir', dir], { VOICE_EVAL_LOG_LEVEL: 'info' });
    await expect.poll(() => server.stdout(), { timeout: 60_000 }).toContain('"server:listening"');
    const line = server
      .stdout()
      .split('\n')
      .find((l) => l.includes('"server:listening"'))!;
    const banner = JSON.parse(line);
    expect(banner).toMatchObject({ level: 30, database: 'pglite', data_dir: dir });
    expect(banner.url).toMatch(/^http:\/\/localhost:\d+$/);
    expect(banner.docs_url).toBe(`${banner.url}/docs`);
    // every line on stdout is a log line: no plain-text banner beside them
    for (const l of server.stdout().split('\n').filter(Boolean)) expect(() => JSON.parse(l)).not.toThrow();
    const config = await fetch(`${banner.url}/api/v1/auth/config`);
    expect(config.status).toBe(200);
    server.child.kill('SIGTERM');
    expect(await server.exited).toBe(0);

    // the embedded database was closed cleanly: the same folder opens again
    const again = await complete(['migrate', '--data-dir', dir]);
    expect(again.code).toBe(0);
    expect(again.stdout).toContain('migrations applied');
  }, 120_000);

  it('fails fast with a readable message on bad configuration', async () => {
    const bad = await complete(['serve'], { PORT: 'eighty', VOICE_EVAL_DATA_DIR: dataDir() });
    expect(bad.code).toBe(1);
    expect(bad.stderr).toMatch(/Invalid voice-eval configuration:[\s\S]*port/);
    expect(bad.stderr).not.toMatch(/^\s+at /m);
  }, 60_000);

  it('set-plan refuses an unknown organization (1) and a missing plan (2)', async () => {
    const dir = dataDir();
    const unknown = await complete([
      'set-plan',
      '00000000-0000-4000-8000-000000000000',
      'enterprise',
      '--data-dir',
      dir,
    ]);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain('Organization not found');
    const missing = await complete(['set-plan', '00000000-0000-4000-8000-000000000000', '--data-dir', dir]);
    expect(missing.code).toBe(2);
  }, 120_000);

  // help and usage errors in all their forms: cli-usage.test.ts, in process
  it('the bin prints help and its version on stdout (exit 0), and a usage error as one line (exit 2)', async () => {
    const [help, printed, unknown] = await Promise.all([
      complete(['--help']),
      complete(['--version']),
      complete(['frobnicate']),
    ]);
    expect(help).toMatchObject({ code: 0, stderr: '' });
    expect(help.stdout).toMatch(/^Usage: voice-eval <command>/);
    expect(printed).toEqual({ code: 0, stdout: `${version}\n`, stderr: '' });
    expect(unknown).toEqual({
      code: 2,
      stdout: '',
      stderr: "voice-eval: unknown command 'frobnicate' (see voice-eval --help)\n",
    });
  }, 120_000);
});

/** Where create-api-key runs: the test's Postgres database, or an embedded PGlite folder. */
const openTarget = async () => {
  const env = { ...SECRETS, NODE_ENV: 'test' };
  if (process.env.TEST_DATABASE_URL) {
    const testDb = await createTestDb();
    // this process's servers open their own pools on it (and close them)
    await testDb.db.destroy();
    return {
      childEnv: { ...env, DATABASE_URL: testDb.url! },
      options: { databaseUrl: testDb.url! },
      done: testDb.destroy,
    };
  }
  const dir = dataDir();
  return { childEnv: { ...env, VOICE_EVAL_DATA_DIR: dir }, options: { dataDir: dir }, done: async () => {} };
};

/** The server in this process on the target (PGlite: only while no child has the folder open). */
const serverOn = (options: { dataDir: string } | { databaseUrl: string }) =>
  createVoiceEvalServer({
    ...options,
    nodeEnv: 'test',
    jwtSecret: SECRETS.VOICE_EVAL_JWT_SECRET,
    encryptionKey: SECRETS.VOICE_EVAL_ENCRYPTION_KEY,
    workerConcurrency: 0,
    logger: pino({ level: 'silent' }),
    env: {},
  });

describe('voice-eval create-api-key', () => {
  it('creates a key in the database that authenticates a real request, printed once', async () => {
    const target = await openTarget();
    try {
      const seeding = serverOn(target.options);
      await seeding.migrate();
      const org = await createOrganization(seeding.deps.db, 'Bootstrap Inc');
      await seeding.close();

      const created = await complete(
        ['create-api-key', '--org', org.id, '--name', 'ci bot'],
        target.childEnv,
      );
      expect(created.code).toBe(0);
      expect(created.stdout).toMatch(/^ve_live_[0-9A-Za-z]{38}\n$/);
      expect(created.stderr).toMatch(
        /^created API key ve_live_\S+… "ci bot" \([0-9a-f-]{36}\) for Bootstrap Inc/,
      );
      const key = created.stdout.trim();
      expect(created.stderr).not.toContain(key);
      const asJson = await complete(['create-api-key', '--org', org.id, '--json'], target.childEnv);
      expect(asJson.code).toBe(0);
      expect(JSON.parse(asJson.stdout)).toMatchObject({ name: 'API key', organization_id: org.id });

      const server = serverOn(target.options);
      const { url } = await server.listen(0);
      try {
        const me = await fetch(`${url}/api/v1/auth/me`, { headers: { 'x-api-key': key } });
        expect(me.status).toBe(200);
        expect(await me.json()).toMatchObject({
          principal_type: 'api_key',
          organization: { id: org.id, name: 'Bootstrap Inc' },
        });
        const listed = await fetch(`${url}/api/v1/api-keys`, { headers: { 'x-api-key': key } });
        expect(listed.status).toBe(200);
        const keys = (await listed.json()).items as Array<{ name: string; created_by: string }>;
        expect(keys.map((k) => k.name).sort()).toEqual(['API key', 'ci bot']);
        // no user created them
        expect(keys.map((k) => k.created_by)).toEqual(['', '']);
      } finally {
        await server.close();
      }
      // only the hash is stored
      const check = serverOn(target.options);
      const rows = await check.deps.db('api_keys').where({ organization_id: org.id }).select('key_hash');
      expect(rows.map((r) => r.key_hash)).not.toContain(key);
      await check.close();
    } finally {
      await target.done();
    }
  }, 180_000);

  it('refuses an unknown or malformed organization id with one line and exit 1, creating nothing', async () => {
    const target = await openTarget();
    try {
      const [unknown, malformed] = [
        await complete(['create-api-key', '--org', '00000000-0000-4000-8000-000000000000'], target.childEnv),
        await complete(['create-api-key', '--org', 'acme'], target.childEnv),
      ];
      expect(unknown).toEqual({
        code: 1,
        stdout: '',
        stderr: 'voice-eval create-api-key: Organization not found\n',
      });
      expect(malformed).toEqual({
        code: 1,
        stdout: '',
        stderr: 'voice-eval create-api-key: Not an organization id: acme\n',
      });
      const check = serverOn(target.options);
      const [counted] = await check.deps.db('api_keys').count({ n: '*' });
      await check.close();
      expect(Number(counted?.n)).toBe(0);
    } finally {
      await target.done();
    }
  }, 180_000);
});
