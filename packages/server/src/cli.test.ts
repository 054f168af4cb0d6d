import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';

// the bin users run; in the workspace it must run the sources even after `pnpm build` wrote dist/
const bin = fileURLToPath(new URL('../bin/voice-eval.js', import.meta.url));
const packageDir = fileURLToPath(new URL('..', import.meta.url));
const children: ChildProcess[] = [];
afterEach(() => {
  for (const child of children.splice(0)) child.kill('SIGKILL');
});

const run = (args: string[], env: Record<string, string> = {}) => {
  const child = spawn(process.execPath, [bin, ...args], {
    env: { ...process.env, NODE_ENV: 'development', DATABASE_URL: '', VOICE_EVAL_LOG_LEVEL: 'warn', ...env },
    cwd: packageDir,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.push(child);
  let output = '';
  child.stdout!.on('data', (chunk) => {
    output += chunk;
  });
  child.stderr!.on('data', (chunk) => {
    output += chunk;
  });
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return { child, exited, output: () => output };
};

describe('voice-eval CLI', () => {
  it('serve starts on the embedded database, prints the docs URL, and exits 0 on SIGTERM', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'voice-eval-cli-'));
    const server = run(['serve', '--port', '0', '--data-dir', dataDir]);
    await expect
      .poll(() => server.output(), { timeout: 60_000 })
      .toMatch(/API reference: http:\/\/localhost:\d+\/docs/);
    const url = server.output().match(/listening on (http:\/\/localhost:\d+)/)?.[1];
    expect(url).toBeDefined();
    const config = await fetch(`${url}/api/v1/auth/config`);
    expect(config.status).toBe(200);
    server.child.kill('SIGTERM');
    expect(await server.exited).toBe(0);

    // the embedded database was closed cleanly: the same folder opens again
    const again = run(['migrate', '--data-dir', dataDir]);
    expect(await again.exited).toBe(0);
    expect(again.output()).toContain('migrations applied');
  }, 120_000);

  it('fails fast with a readable message on bad configuration', async () => {
    const bad = run(['serve'], {
      PORT: 'eighty',
      VOICE_EVAL_DATA_DIR: mkdtempSync(join(tmpdir(), 'voice-eval-cli-')),
    });
    expect(await bad.exited).toBe(1);
    expect(bad.output()).toMatch(/Invalid voice-eval configuration:[\s\S]*port/);
  }, 60_000);

  it('set-plan refuses an unknown organization (1) and a missing plan (2)', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'voice-eval-cli-'));
    const unknown = run([
      'set-plan',
      '00000000-0000-4000-8000-000000000000',
      'enterprise',
      '--data-dir',
      dataDir,
    ]);
    expect(await unknown.exited).toBe(1);
    expect(unknown.output()).toContain('Organization not found');
    const missing = run(['set-plan', '00000000-0000-4000-8000-000000000000', '--data-dir', dataDir]);
    expect(await missing.exited).toBe(2);
  }, 120_000);

  it('prints usage for an unknown command and exits 2', async () => {
    const unknown = run(['frobnicate']);
    expect(await unknown.exited).toBe(2);
    expect(unknown.output()).toContain('Usage: voice-eval');
  }, 60_000);
});
