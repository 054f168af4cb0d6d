import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { median } from './call-imports-setup.js';
import { firstOk, freePort, SERVER_DIR, spawnNode } from './server-process.js';

/**
 * Cold start to the first 200: spawn -> first `200` over HTTP, polled every 5 ms, for
 * - ours: `pnpm start`'s script (the server package's scripts/start.js) from the build, on PGlite, with
 *   the data folder of an earlier start (a restart) and with an empty one (the first start ever:
 *   the database is created and migrated);
 * - ours from the sources (no build: tsx compiles TypeScript at start), for comparison;
 * - the baseline: `node -e` starting a bare Express server.
 * Runs alternate between them; figures are medians.
 */

export const COLD_START_SETTINGS = { runs: 5, target: 3_000 };

const serverDir = SERVER_DIR;
const benchDir = fileURLToPath(new URL('..', import.meta.url));
const BARE = `require('express')().get('/', (_req, res) => res.send('ok')).listen(Number(process.env.PORT))`;

const ENV = {
  PATH: process.env.PATH,
  HOME: process.env.HOME,
  NODE_ENV: 'production',
  VOICE_EVAL_JWT_SECRET: 'bench-secret-that-is-at-least-32-characters',
  VOICE_EVAL_ENCRYPTION_KEY: Buffer.alloc(32, 4).toString('base64'),
  VOICE_EVAL_LOG_LEVEL: 'warn',
};

type Variant = { name: string; args: string[]; cwd: string; path: string; dataDir?: () => string };

/** One spawn -> first 200, in ms. */
const coldStart = async (variant: Variant) => {
  const port = await freePort();
  const dataDir = variant.dataDir?.();
  const started = performance.now();
  const server = spawnNode(variant.args, {
    cwd: variant.cwd,
    env: { ...ENV, PORT: String(port), ...(dataDir ? { VOICE_EVAL_DATA_DIR: dataDir } : {}) },
  });
  try {
    const answered = await firstOk(`http://127.0.0.1:${port}${variant.path}`, server);
    if (server.output().includes('serving the sources')) {
      throw new Error(`the build is out of date: run pnpm build first\n${server.output()}`);
    }
    return answered - started;
  } finally {
    await server.stop();
  }
};

export const coldStartBench = async ({ runs = COLD_START_SETTINGS.runs } = {}) => {
  if (!existsSync(join(serverDir, 'dist/cli.js')))
    throw new Error('cold-start measures the build: run pnpm build first');
  const scratch = mkdtempSync(join(tmpdir(), 'voice-eval-bench-cold-'));
  const existing = join(scratch, 'existing');
  let fresh = 0;
  const path = '/api/v1/auth/config';
  const start = ['scripts/start.js'];
  const variants: Variant[] = [
    { name: 'bare', args: ['-e', BARE], cwd: benchDir, path: '/' },
    { name: 'built', args: start, cwd: serverDir, path, dataDir: () => existing },
    {
      name: 'builtFresh',
      args: start,
      cwd: serverDir,
      path,
      dataDir: () => join(scratch, `fresh-${fresh++}`),
    },
    {
      name: 'source',
      args: ['--conditions=@voice-eval/source', '--import', 'tsx/esm', 'src/cli.ts', 'serve'],
      cwd: serverDir,
      path,
      dataDir: () => existing,
    },
  ];
  try {
    // an unmeasured start creates and migrates the existing folder and warms the disk cache
    await coldStart(variants[1]!);
    const times = new Map(variants.map((v) => [v.name, [] as number[]]));
    for (let i = 0; i < runs; i++) {
      // each run starts with a different variant, so drift on a shared machine hits every one
      for (let j = 0; j < variants.length; j++) {
        const variant = variants[(i + j) % variants.length]!;
        times.get(variant.name)!.push(await coldStart(variant));
      }
    }
    const m = (name: string) => median(times.get(name)!);
    const max = (name: string) => Math.max(...times.get(name)!);
    return {
      runs,
      bareMs: m('bare'),
      builtMs: m('built'),
      builtMaxMs: max('built'),
      builtFreshMs: m('builtFresh'),
      sourceMs: m('source'),
      ratio: m('built') / m('bare'),
      freshRatio: m('builtFresh') / m('bare'),
    };
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
};
