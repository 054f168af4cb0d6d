import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { type AddressInfo, createServer } from 'node:net';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';

/**
 * The server package's folder, found through the package (its exported `package.json`), not a
 * relative path: the benches that start the CLI or the build as a process run them from there.
 */
export const SERVER_DIR = dirname(createRequire(import.meta.url).resolve('@voice-eval/server/package.json'));

/**
 * Spawns the server's CLI from its sources (`voice-eval serve`, as the workspace's bin runs it)
 * with `env`, on a free port, and resolves once `GET /api/v1/auth/config` answers 200.
 */
export const startCliServer = async (env: NodeJS.ProcessEnv) => {
  const port = await freePort();
  const server = spawnNode(
    ['--conditions=@voice-eval/source', '--import', 'tsx/esm', 'src/cli.ts', 'serve', '--port', String(port)],
    { cwd: SERVER_DIR, env },
  );
  const url = `http://127.0.0.1:${port}`;
  await firstOk(`${url}/api/v1/auth/config`, server, 100);
  return { ...server, url, pid: server.child.pid! };
};

/** A port free on loopback now (the child binds it a moment later). */
export const freePort = async (): Promise<number> => {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as AddressInfo;
  await new Promise((resolve) => probe.close(resolve));
  return port;
};

/** A server in a child process, and what it wrote. */
export type ServerProcess = { child: ChildProcess; output: () => string; stop: () => Promise<void> };

/** Spawns `node args` with output captured; `stop` sends SIGTERM and waits for the exit. */
export const spawnNode = (
  args: string[],
  options: { cwd: string; env: NodeJS.ProcessEnv },
): ServerProcess => {
  const child = spawn(process.execPath, args, { ...options, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout!.on('data', (chunk) => {
    output += chunk;
  });
  child.stderr!.on('data', (chunk) => {
    output += chunk;
  });
  const stop = async () => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    const exited = once(child, 'exit');
    child.kill('SIGTERM');
    await exited;
  };
  return { child, output: () => output, stop };
};

/**
 * Polls `url` every `intervalMs` until it answers 200; resolves with the time it did (performance.now()).
 * Rejects if the child exits first.
 */
export const firstOk = async (url: string, server: ServerProcess, intervalMs = 5): Promise<number> => {
  for (;;) {
    if (server.child.exitCode !== null)
      throw new Error(`server exited with ${server.child.exitCode}: ${server.output()}`);
    const ok = await fetch(url).then(
      async (res) => {
        await res.arrayBuffer();
        return res.status === 200;
      },
      () => false,
    );
    if (ok) return performance.now();
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
  }
};

/**
 * The server package's public API from its build (`dist/index.js`), as an app that installed it
 * runs it, for the benches that measure the server in their own process. The sources run through
 * tsx, which adds work to every function it compiles (`__name` on each closure made per request);
 * throws when the build is missing or older than its sources (the check `pnpm start` makes).
 */
export const importBuiltServer = async (): Promise<typeof import('@voice-eval/server')> => {
  const freshness: { staleInput: () => { sources: string } | undefined } = await import(
    pathToFileURL(join(SERVER_DIR, 'scripts/build-freshness.js')).href
  );
  const built = join(SERVER_DIR, 'dist/index.js');
  const stale = existsSync(built) ? freshness.staleInput() : { sources: SERVER_DIR };
  if (stale)
    throw new Error(
      `this bench measures the build, older than ${stale.sources} or missing: run pnpm build first`,
    );
  return import(pathToFileURL(built).href);
};
