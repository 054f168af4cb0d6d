import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';
import { databaseTestFiles } from './packages/server/test/database-files.js';

/**
 * Resolves the workspace packages to their TypeScript sources through their custom export
 * condition (no build needed). Vite replaces its default conditions with these, so they are listed.
 */
const source = {
  ssr: { resolve: { conditions: ['@voice-eval/source', 'module', 'node', 'development|production'] } },
};

/**
 * The server's tests. Without Vite's `module` condition (Vitest passes the conditions to Node as
 * --conditions): Node picks the `node` builds of dependencies, as in production; the AWS SDK's
 * `module` build has extensionless imports Node cannot load.
 */
const server = {
  ssr: { resolve: { conditions: ['@voice-eval/source', 'node', 'development|production'] } },
  test: {
    root: './packages/server',
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
    globalSetup: ['./test/global-setup.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
};

/** The server's tests that hold voice calls in real time, over loopback sockets. */
const realTime = new Set([
  'test/suite-runs/voice-e2e.test.ts',
  'test/suite-runs/voice-s3.test.ts',
  'test/crash/voice-crash.test.ts',
  'src/testing/voice-agent.test.ts',
  'src/modules/agents/agent-voice-test.http.test.ts',
]);
const serverFiles = databaseTestFiles(fileURLToPath(new URL('./packages/server', import.meta.url)));
const notRealTime = (file: string) => !realTime.has(file);

/**
 * The test projects. Vitest 4 no longer discovers a workspace file by itself: the root `test`
 * script passes this file with `--config`.
 */
export default defineConfig({
  test: {
    // Vitest's default on two cores is one worker; the files mostly wait on sockets and the
    // database, so two run side by side. The real-time project runs last, on its own.
    maxWorkers: 2,
    projects: [
      {
        ...source,
        test: {
          name: 'contract',
          root: './contract',
          include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
          typecheck: { enabled: true, include: ['src/**/*.test-d.ts', 'test/**/*.test-d.ts'] },
        },
      },
      {
        // the files that open a database: CI runs them on PGlite and again on Postgres
        ...server,
        test: { ...server.test, name: 'server', include: serverFiles.database.filter(notRealTime) },
      },
      {
        // the same on either database (pure functions, parsers, planners, doubles): run once
        ...server,
        test: {
          ...server.test,
          name: 'server-unit',
          include: serverFiles.other.filter(notRealTime),
          globalSetup: [],
        },
      },
      {
        // after every other file (a group of its own), two at a time: these calls mostly wait on
        // their timers, and a machine busy with other tests would delay them
        ...server,
        test: {
          ...server.test,
          name: 'server-realtime',
          include: [...realTime],
          sequence: { groupOrder: 1 },
        },
      },
      {
        ...source,
        test: {
          name: 'sdk',
          root: './packages/sdk',
          include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
          typecheck: { enabled: true, include: ['src/**/*.test-d.ts', 'test/**/*.test-d.ts'] },
          testTimeout: 30_000,
        },
      },
      {
        ...source,
        test: {
          name: 'example-agent-sdk',
          root: './examples/agent-sdk',
          include: ['test/**/*.test.ts'],
        },
      },
      {
        ...source,
        test: {
          name: 'example-host-app',
          root: './examples/host-app',
          include: ['test/**/*.test.ts'],
        },
      },
      {
        ...source,
        test: {
          name: 'example-msw-consumer',
          root: './examples/msw-consumer',
          include: ['test/**/*.test.ts'],
        },
      },
      {
        ...source,
        test: {
          name: 'example-ci-gate',
          root: './examples/ci-gate',
          include: ['test/**/*.test.ts'],
        },
      },
    ],
  },
});
