import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import pino from 'pino';
import { afterEach, describe, expect, it } from 'vitest';
import { createTestDb } from '../test/setup-db.js';
import { insertOrganization } from './modules/auth/repo.js';
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

  it('prints help (help, --help, -h, help <command>, <command> --help) and --version on stdout', async () => {
    const [help, long, short, helpServe, ...commands] = await Promise.all([
      complete(['help']),
      complete(['--help']),
      complete(['-h']),
      complete(['help', 'serve']),
      ...['serve', 'migrate', 'create-api-key', 'set-plan', 'run-suite'].map((c) => complete([c, '--help'])),
    ]);
    for (const r of [help, long, short, helpServe, ...commands]) {
      expect(r.code).toBe(0);
      expect(r.stderr).toBe('');
    }
    expect(help.stdout).toMatch(/^Usage: voice-eval <command>/);
    for (const name of ['serve', 'migrate', 'create-api-key', 'set-plan', 'run-suite', 'help']) {
      expect(help.stdout).toMatch(new RegExp(`^  ${name} `, 'm'));
    }
    expect(long.stdout).toBe(help.stdout);
    expect(short.stdout).toBe(help.stdout);
    expect(helpServe.stdout).toBe(commands[0]!.stdout);
    expect(commands.map((r) => r.stdout.split('\n')[0])).toEqual([
      'Usage: voice-eval serve [--port N] [--data-dir DIR]',
      'Usage: voice-eval migrate [--data-dir DIR]',
      'Usage: voice-eval create-api-key --org ORG_ID [--name NAME] [--json] [--data-dir DIR]',
      'Usage: voice-eval set-plan ORG_ID free|enterprise [--data-dir DIR]',
      'Usage: voice-eval run-suite SUITE_ID [options]',
    ]);
    const printed = await complete(['--version']);
    expect(printed).toEqual({ code: 0, stdout: `${version}\n`, stderr: '' });
  }, 120_000);

  it('answers an unknown command or option, or a bad argument, with one line on stderr and exit 2', async () => {
    const cases: Array<[string[], string]> = [
      [['frobnicate'], "voice-eval: unknown command 'frobnicate' (see voice-eval --help)"],
      [['--frobnicate'], "voice-eval: unknown option '--frobnicate' (see voice-eval --help)"],
      [['help', 'frobnicate'], "voice-eval: unknown command 'frobnicate' (see voice-eval --help)"],
      [['serve', '--bogus'], "voice-eval serve: Unknown option '--bogus' (see voice-eval serve --help)"],
      [
        ['serve', '--port', 'eighty'],
        "voice-eval serve: --port must be 0 to 65535, got 'eighty' (see voice-eval serve --help)",
      ],
      [['migrate', 'now'], "voice-eval migrate: unexpected argument 'now' (see voice-eval migrate --help)"],
      [
        ['create-api-key'],
        'voice-eval create-api-key: --org ORG_ID is required (see voice-eval create-api-key --help)',
      ],
      [
        ['create-api-key', '--org'],
        "voice-eval create-api-key: Option '--org <value>' argument missing (see voice-eval create-api-key --help)",
      ],
      [['set-plan', '-x'], "voice-eval set-plan: Unknown option '-x' (see voice-eval set-plan --help)"],
      [
        ['run-suite', '--bogus'],
        "voice-eval run-suite: Unknown option '--bogus' (see voice-eval run-suite --help)",
      ],
    ];
    const results = await Promise.all(cases.map(([args]) => complete(args)));
    results.forEach((result, i) => {
      expect({ args: cases[i]![0], ...result }).toEqual({
        args: cases[i]![0],
        code: 2,
        stdout: '',
        stderr: `${cases[i]![1]}\n`,
      });
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
      const org = await insertOrganization(seeding.deps.db, 'Bootstrap Inc');
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
