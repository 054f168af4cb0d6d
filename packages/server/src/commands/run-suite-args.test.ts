import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { runSuite } from './run-suite.js';

// No server is mocked: a usage error must stop the command before any request is made (one would
// fail on the unresolvable host and exit 3, not 2).
const ENV = { VOICE_EVAL_URL: 'https://voice-eval.invalid', VOICE_EVAL_API_KEY: 've_test_key' };

const run = async (args: string[], env: Record<string, string> = ENV) => {
  const stdout: string[] = [];
  const stderr: string[] = [];
  const code = await runSuite(args, {
    env,
    stdout: (text) => stdout.push(text),
    stderr: (text) => stderr.push(text),
    clientOptions: { maxRetries: 0, logLevel: 'off' },
  });
  return { code, stdout: stdout.join('\n'), stderr: stderr.join('\n') };
};

describe('voice-eval run-suite usage', () => {
  it.each([
    [[], 'missing the suite id'],
    [['not-a-suite'], "'not-a-suite' is not a suite id"],
    [['SUITE', '--wiat'], "Unknown option '--wiat'"],
    [['SUITE', '--wait', '--fail-under', '80'], '--fail-under must be a pass rate from 0 to 1'],
    [['SUITE', '--calls', 'two'], '--calls must be a whole number'],
    [['SUITE', '--fail-under', '0.8'], '--fail-under needs --wait'],
    [['SUITE', '--baseline', 'yesterday', '--wait'], "--baseline must be 'last' or a run id"],
    [['SUITE', '--url'], "Option '--url <value>' argument missing"],
  ])('usage error %j exits 2 with one line', async (args, message) => {
    const result = await run(args.map((a) => (a === 'SUITE' ? crypto.randomUUID() : a)));
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(message);
    expect(result.stderr.split('\n')).toHaveLength(1);
    expect(result.stdout).toBe('');
  });

  it('without a server URL or key it is a usage error', async () => {
    const result = await run([crypto.randomUUID()], { VOICE_EVAL_API_KEY: 'k' });
    expect(result).toMatchObject({
      code: 2,
      stderr: expect.stringContaining('pass --url or set VOICE_EVAL_URL'),
    });
    const noKey = await run([crypto.randomUUID(), '--url', ENV.VOICE_EVAL_URL], {});
    expect(noKey.stderr).toContain('pass --api-key or set VOICE_EVAL_API_KEY');
  });

  it('through the bin: a typo is a one-line usage error (2), --help documents the exit codes (0)', async () => {
    const bin = fileURLToPath(new URL('../../bin/voice-eval.js', import.meta.url));
    const exec = (args: string[]) => {
      const child = spawn(process.execPath, [bin, 'run-suite', ...args], {
        env: { ...process.env, ...ENV },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let stdout = '';
      let stderr = '';
      child.stdout.on('data', (chunk) => {
        stdout += chunk;
      });
      child.stderr.on('data', (chunk) => {
        stderr += chunk;
      });
      return new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) =>
        child.on('close', (code) => resolve({ code, stdout, stderr })),
      );
    };
    const typo = await exec([crypto.randomUUID(), '--wait', '--fail-undr', '0.8']);
    expect(typo.code).toBe(2);
    expect(typo.stderr.trim()).toBe(
      "voice-eval run-suite: Unknown option '--fail-undr' (see voice-eval run-suite --help)",
    );
    const help = await exec(['--help']);
    expect(help.code).toBe(0);
    expect(help.stdout).toContain('Usage: voice-eval run-suite SUITE_ID');
    expect(help.stdout).toMatch(/Exit codes:[\s\S]*3 {2}API or connection error/);
  }, 60_000);
});
