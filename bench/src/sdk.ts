import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { VoiceEval } from '@voice-eval/sdk';
import { build } from 'esbuild';
import { firstOk, freePort, SERVER_DIR, spawnNode } from './server-process.js';

/** Runs `call` from `concurrency` loops for `ms` and returns calls per second. */
const throughput = async (call: () => Promise<unknown>, ms: number, concurrency: number) => {
  let done = 0;
  const until = performance.now() + ms;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (performance.now() < until) {
        await call();
        done++;
      }
    }),
  );
  return (done * 1000) / ms;
};

/** The SDK's main entry bundled and minified as an app would ship it (deps included), gzipped. */
const sdkSize = async () => {
  // the SDK's sources, through its package (the bench runs with the workspace's source condition)
  const entry = fileURLToPath(import.meta.resolve('@voice-eval/sdk'));
  const result = await build({
    entryPoints: [entry],
    bundle: true,
    minify: true,
    format: 'esm',
    platform: 'neutral',
    write: false,
    logLevel: 'silent',
    mainFields: ['module', 'main'],
  });
  const code = result.outputFiles[0]!.contents;
  return { minKb: code.byteLength / 1024, gzipKb: gzipSync(code).byteLength / 1024 };
};

/**
 * The real server in its own process (so the client's CPU is measured alone) on a free port,
 * polled until it answers (its log level hides the `server:listening` line).
 */
const startServer = async () => {
  const cwd = SERVER_DIR;
  const port = await freePort();
  const server = spawnNode(
    ['--conditions=@voice-eval/source', '--import', 'tsx/esm', 'src/cli.ts', 'serve', '--port', String(port)],
    {
      cwd,
      env: {
        ...process.env,
        NODE_ENV: 'production',
        VOICE_EVAL_DATA_DIR: mkdtempSync(join(tmpdir(), 'voice-eval-bench-sdk-')),
        VOICE_EVAL_JWT_SECRET: 'bench-secret-that-is-at-least-32-characters',
        VOICE_EVAL_ENCRYPTION_KEY: Buffer.alloc(32, 3).toString('base64'),
        VOICE_EVAL_LOG_LEVEL: 'warn',
        VOICE_EVAL_WORKER_CONCURRENCY: '0',
        DATABASE_URL: process.env.BENCH_DATABASE_URL ?? '',
      },
    },
  );
  const url = `http://127.0.0.1:${port}`;
  await firstOk(`${url}/api/v1/auth/config`, server, 100);
  return { url, stop: server.stop };
};

/**
 * `client.workspaces.get(id)` (API key, response validated against the contract) vs a raw `fetch`
 * of the same URL with the same headers and `res.json()`, against the server in a child process:
 * both warmed up, then rounds alternating which goes first.
 */
export const sdkBench = async ({ seconds = 4, rounds = 4, concurrency = 8 } = {}) => {
  const server = await startServer();
  const { url } = server;
  const session = await new VoiceEval({ baseUrl: url }).auth.signup({
    email: 'sdk@bench.test',
    password: 'bench password',
  });
  const owner = new VoiceEval({
    baseUrl: url,
    accessToken: session.access_token,
    refreshToken: session.refresh_token,
  });
  const { key } = await owner.auth.generateKey({ name: 'bench' });
  const workspace = await owner.workspaces.create({ name: 'Bench' });
  const client = new VoiceEval({ baseUrl: url, apiKey: key, maxRetries: 0 });
  const target = `${url}/api/v1/workspaces/${workspace.id}`;
  const raw = async () => {
    const res = await fetch(target, { headers: { 'x-api-key': key } });
    if (!res.ok) throw new Error(`raw fetch: ${res.status}`);
    return res.json();
  };
  const sdk = () => client.workspaces.get(workspace.id);
  // an unmeasured round of each first, so neither side pays for JIT compilation (client or
  // server) in the figures; then rounds alternate which side goes first, so drift on a shared
  // machine hits both
  const warmUpMs = Math.min(2, seconds) * 1000;
  await throughput(raw, warmUpMs, concurrency);
  await throughput(sdk, warmUpMs, concurrency);
  let sdkTotal = 0;
  let rawTotal = 0;
  for (let i = 0; i < rounds; i++) {
    const order = i % 2 === 0 ? (['raw', 'sdk'] as const) : (['sdk', 'raw'] as const);
    for (const side of order) {
      if (side === 'raw') rawTotal += await throughput(raw, seconds * 1000, concurrency);
      else sdkTotal += await throughput(sdk, seconds * 1000, concurrency);
    }
  }
  await server.stop();
  const size = await sdkSize();
  return { sdk: sdkTotal / rounds, raw: rawTotal / rounds, ratio: sdkTotal / rawTotal, ...size };
};
