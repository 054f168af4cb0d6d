/**
 * The packed package works: `pnpm pack` output (publishConfig exports) installed beside its
 * dependencies, loaded with `require` and `import`, and passing publint and attw.
 */
import { execFileSync } from 'node:child_process';
import {
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  realpathSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'tsup';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const SDK = join(dirname(fileURLToPath(import.meta.url)), '..');
const CONTRACT = join(SDK, '../../contract');
const work = mkdtempSync(join(tmpdir(), 'voice-eval-sdk-pack-'));
const app = join(work, 'app');
const modules = join(app, 'node_modules');
let tarball = '';

const newest = (path: string): number =>
  statSync(path).isDirectory()
    ? Math.max(0, ...readdirSync(path).map((name) => newest(join(path, name))))
    : statSync(path).mtimeMs;

/** Builds dist unless it is newer than every source file (the d.ts pass takes ~40 s). */
const buildIfStale = () => {
  const built = (() => {
    try {
      return statSync(join(SDK, 'dist/index.d.cts')).mtimeMs;
    } catch {
      return 0;
    }
  })();
  const sources = Math.max(
    newest(join(SDK, 'src')),
    newest(join(SDK, 'tsup.config.ts')),
    newest(join(SDK, 'package.json')),
  );
  if (built < sources)
    execFileSync('pnpm', ['--filter', '@voice-eval/sdk', 'build'], { cwd: SDK, stdio: 'pipe' });
};

/** The contract as its package would be published: JS built from source, publishConfig exports. */
const installContract = async () => {
  const target = join(modules, '@voice-eval/contract');
  await build({
    entry: { index: join(CONTRACT, 'src/index.ts') },
    format: ['esm', 'cjs'],
    outDir: join(target, 'dist'),
    external: ['zod', '@ts-rest/core', '@ts-rest/open-api'],
    config: false,
    silent: true,
  });
  const pkg = JSON.parse(readFileSync(join(CONTRACT, 'package.json'), 'utf8'));
  writeFileSync(join(target, 'package.json'), JSON.stringify({ ...pkg, ...pkg.publishConfig }));
};

const link = (name: string) => {
  const target = join(modules, name);
  mkdirSync(dirname(target), { recursive: true });
  symlinkSync(realpathSync(join(SDK, 'node_modules', name)), target, 'dir');
};

const SMOKE = (load: string) => `${load}
const run = async () => {
  const mocks = createVoiceEvalMocks();
  const server = setupServer(...mocks.handlers);
  server.listen({ onUnhandledRequest: 'error' });
  const client = new VoiceEval({ baseUrl: 'https://api.voice-eval.test', apiKey: 'k', logLevel: 'off' });
  const tag = await client.tags.create({ name: 'smoke' });
  const page = await client.tags.list();
  const error = await client.tags.delete('00000000-0000-4000-8000-0000000000ff').catch((e) => e);
  server.close();
  process.stdout.write(JSON.stringify({ name: tag.name, total: page.total, notFound: error instanceof NotFoundError && error instanceof VoiceEvalError }));
};
run().catch((e) => { process.stderr.write(String(e && e.stack)); process.exit(1); });
`;

beforeAll(async () => {
  buildIfStale();
  execFileSync('pnpm', ['pack', '--pack-destination', work], { cwd: SDK, stdio: 'pipe' });
  tarball = join(work, readdirSync(work).find((f) => f.endsWith('.tgz'))!);
  mkdirSync(join(modules, '@voice-eval/sdk'), { recursive: true });
  execFileSync('tar', ['-xzf', tarball, '-C', join(modules, '@voice-eval/sdk'), '--strip-components=1']);
  await installContract();
  for (const name of ['zod', '@ts-rest/core', 'msw']) link(name);
  writeFileSync(
    join(app, 'smoke.cjs'),
    SMOKE(`const { VoiceEval, NotFoundError, VoiceEvalError } = require('@voice-eval/sdk');
const { createVoiceEvalMocks } = require('@voice-eval/sdk/msw');
const { setupServer } = require('msw/node');`),
  );
  writeFileSync(
    join(app, 'smoke.mjs'),
    SMOKE(`import { VoiceEval, NotFoundError, VoiceEvalError } from '@voice-eval/sdk';
import { createVoiceEvalMocks } from '@voice-eval/sdk/msw';
import { setupServer } from 'msw/node';`),
  );
}, 240_000);

afterAll(() => rmSync(work, { recursive: true, force: true }));

const node = (file: string) =>
  JSON.parse(execFileSync(process.execPath, [file], { cwd: app, encoding: 'utf8' }));

describe('the packed package', () => {
  it('ships only dist (ESM, CJS, both kinds of declarations) and the README', () => {
    const files = execFileSync('tar', ['-tzf', tarball], { encoding: 'utf8' }).split('\n');
    for (const entry of ['index', 'msw/index']) {
      for (const ext of ['.js', '.cjs', '.d.ts', '.d.cts'])
        expect(files).toContain(`package/dist/${entry}${ext}`);
    }
    const extra = ['package/package.json', 'package/README.md'];
    expect(files.filter((f) => f && !f.startsWith('package/dist/') && !extra.includes(f))).toEqual([]);
  });

  it('works with require()', () => {
    expect(node('smoke.cjs')).toEqual({ name: 'smoke', total: 1, notFound: true });
  });

  it('works with import', () => {
    expect(node('smoke.mjs')).toEqual({ name: 'smoke', total: 1, notFound: true });
  });

  it('passes publint --strict', () => {
    expect(() =>
      execFileSync(join(SDK, 'node_modules/.bin/publint'), [tarball, '--strict'], { stdio: 'pipe' }),
    ).not.toThrow();
  });

  it('passes @arethetypeswrong/cli (node16 profile)', () => {
    expect(() =>
      execFileSync(
        join(SDK, 'node_modules/.bin/attw'),
        [tarball, '--profile', 'node16', '--format', 'json'],
        { stdio: 'pipe' },
      ),
    ).not.toThrow();
  }, 60_000);
});
