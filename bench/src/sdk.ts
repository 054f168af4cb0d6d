import { spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { VoiceEval } from '@voice-eval/sdk';
import { build } from 'esbuild';

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
  const entry = fileURLToPath(new URL('../../packages/sdk/src/index.ts', import.meta.url));
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

/** The real server in its own process (so the client's CPU is measured alone), on port 0. */
const startServer = async () => {
  const cwd = fileURLToPath(new URL('../../packages/server/', import.meta.url));
  const child = spawn(
    process.execPath,
    ['--conditions=@voice-eval/source', '--import', 'tsx/esm', 'src/cli.ts', 'serve', '--port', '0'],
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
      stdio: ['ignore', 'pipe', 'inherit'],
    },
  );
  const url = await new Promise<string>((resolve, reject) => {
    let out = '';
    child.stdout.on('data', (chunk) => {
      out += chunk;
      const match = out.match(/listening on (http:\/\/localhost:\d+)/);
      if (match) resolve(match[1]!.replace('localhost', '127.0.0.1'));
    });
    child.once('exit', (code) => reject(new Error(`server exited with ${code}: ${out}`)));
  });
  const stop = () =>
    new Promise<void>((resolve) => {
      child.once('exit', () => resolve());
      child.kill('SIGTERM');
    });
  return { url, stop };
};

/**
 * `client.workspaces.get(id)` (API key, response validated against the contract) vs a raw `fetch`
 * of the same URL with the same headers and `res.json()`, alternating rounds in one run, against
 * the server in a child process.
 */
export const sdkBench = async ({ seconds = 4, rounds = 3, concurrency = 8 } = {}) => {
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
  let sdkTotal = 0;
  let rawTotal = 0;
  for (let i = 0; i < rounds; i++) {
    rawTotal += await throughput(raw, seconds * 1000, concurrency);
    sdkTotal += await throughput(sdk, seconds * 1000, concurrency);
  }
  await server.stop();
  const size = await sdkSize();
  return { sdk: sdkTotal / rounds, raw: rawTotal / rounds, ratio: sdkTotal / rawTotal, ...size };
};
