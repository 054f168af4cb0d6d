import { readFileSync } from 'node:fs';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { main } from './cli.js';

/**
 * The command line's help and usage errors, in this process: `main` prints and sets
 * `process.exitCode` the same way under the bin. cli.test.ts runs the bin itself for what only a
 * process shows (the serve banner, exit codes, a database another process opened).
 */
const { version } = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));

const complete = async (args: string[]) => {
  const out: string[] = [];
  const err: string[] = [];
  // the commands print with console.log and console.error, run-suite on the streams
  const spies = [
    vi.spyOn(console, 'log').mockImplementation((...line) => void out.push(`${line.join(' ')}\n`)),
    vi.spyOn(console, 'error').mockImplementation((...line) => void err.push(`${line.join(' ')}\n`)),
    vi.spyOn(process.stdout, 'write').mockImplementation((text) => out.push(String(text)) > 0),
    vi.spyOn(process.stderr, 'write').mockImplementation((text) => err.push(String(text)) > 0),
  ];
  try {
    await main(args);
    return { code: process.exitCode, stdout: out.join(''), stderr: err.join('') };
  } finally {
    for (const spy of spies) spy.mockRestore();
    process.exitCode = undefined;
  }
};
afterEach(() => {
  process.exitCode = undefined;
});

describe('voice-eval CLI usage', () => {
  it('prints help (help, --help, -h, help <command>, <command> --help) and --version on stdout', async () => {
    const help = await complete(['help']);
    const others = [];
    for (const args of [['--help'], ['-h'], ['help', 'serve']]) others.push(await complete(args));
    const commands = [];
    for (const c of ['serve', 'demo', 'migrate', 'create-api-key', 'set-plan', 'run-suite'])
      commands.push(await complete([c, '--help']));
    for (const r of [help, ...others, ...commands]) {
      expect(r.code).toBe(0);
      expect(r.stderr).toBe('');
    }
    expect(help.stdout).toMatch(/^Usage: voice-eval <command>/);
    for (const name of ['serve', 'demo', 'migrate', 'create-api-key', 'set-plan', 'run-suite', 'help']) {
      expect(help.stdout).toMatch(new RegExp(`^  ${name} `, 'm'));
    }
    const [long, short, helpServe] = others;
    expect(long!.stdout).toBe(help.stdout);
    expect(short!.stdout).toBe(help.stdout);
    expect(helpServe!.stdout).toBe(commands[0]!.stdout);
    expect(commands.map((r) => r.stdout.split('\n')[0])).toEqual([
      'Usage: voice-eval serve [--port N] [--data-dir DIR]',
      'Usage: voice-eval demo [--port N] [--data-dir DIR]',
      'Usage: voice-eval migrate [--data-dir DIR]',
      'Usage: voice-eval create-api-key --org ORG_ID [--name NAME] [--json] [--data-dir DIR]',
      'Usage: voice-eval set-plan ORG_ID free|enterprise [--data-dir DIR]',
      'Usage: voice-eval run-suite SUITE_ID [options]',
    ]);
    expect(await complete(['--version'])).toEqual({ code: 0, stdout: `${version}\n`, stderr: '' });
  });

  it('takes a -- before or after the command, as `pnpm start -- --port 4000` passes it', async () => {
    expect(await complete(['--', '--version'])).toEqual({ code: 0, stdout: `${version}\n`, stderr: '' });
    const serveHelp = await complete(['serve', '--help']);
    expect(await complete(['serve', '--', '--help'])).toEqual(serveHelp);
    expect(await complete(['serve', '--', '--port', 'eighty'])).toMatchObject({
      code: 2,
      stderr: "voice-eval serve: --port must be 0 to 65535, got 'eighty' (see voice-eval serve --help)\n",
    });
  });

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
    for (const [args, message] of cases) {
      expect({ args, ...(await complete(args)) }).toEqual({
        args,
        code: 2,
        stdout: '',
        stderr: `${message}\n`,
      });
    }
  });
});
