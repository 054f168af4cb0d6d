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
    // closes what a file's helpers opened (test/file-end.ts)
    setupFiles: ['./test/file-end-setup.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
};

/** The server's tests that hold voice calls in real time, over loopback sockets. */
const realTime = new Set([
  'test/suite-runs/voice-e2e.test.ts',
  'test/suite-runs/voice-barge-in-e2e.test.ts',
  'test/suite-runs/voice-latency-e2e.test.ts',
  'test/suite-runs/voice-s3.test.ts',
  'test/crash/voice-crash.test.ts',
  'test/crash/voice-scale-out.test.ts',
  'src/modules/agents/agent-voice-test.http.test.ts',
]);
/** Real-time files that open no test database (a double alone; the demo on its own PGlite): run once. */
const realTimeOnce = ['src/testing/voice-agent.test.ts', 'src/commands/demo.test.ts'];
/**
 * The console in Chromium (with real voice runs): last, in a group of its own, and on PGlite only
 * (the API it drives is tested on both databases by the files above).
 */
const browserRealTime = [
  'test/console/console.chromium.test.ts',
  'test/console/console-settings.chromium.test.ts',
  'test/console/console-monitors.chromium.test.ts',
  'test/console/console-review.chromium.test.ts',
];
/** Real-time files at once: each holds calls that wait on their timers (see the group below). */
const REAL_TIME_WORKERS = 3;
const serverFiles = databaseTestFiles(fileURLToPath(new URL('./packages/server', import.meta.url)));
const notRealTime = (file: string) =>
  !realTime.has(file) && !realTimeOnce.includes(file) && !browserRealTime.includes(file);

/**
 * With `TEST_DATABASE_URL` set, the projects that open a database run twice in the one Vitest
 * run: on PGlite under their own name and on that Postgres as `<name>-postgres`, sharing the two
 * workers (one start-up, one real-time group for both databases). The project's `env` says which:
 * the global setup reads it there, the tests on `process.env`.
 */
const postgresUrl = process.env.TEST_DATABASE_URL;
type Project = { test: { name: string; env?: Record<string, string> } };
const onBothDatabases = <P extends Project>(project: P): P[] =>
  postgresUrl
    ? [
        { ...project, test: { ...project.test, env: { ...project.test.env, TEST_DATABASE_URL: '' } } },
        {
          ...project,
          test: {
            ...project.test,
            name: `${project.test.name}-postgres`,
            env: { ...project.test.env, TEST_DATABASE_URL: postgresUrl },
          },
        },
      ]
    : [project];

/**
 * The test projects. Vitest 4 no longer discovers a workspace file by itself: the root `test`
 * script passes this file with `--config`.
 */
export default defineConfig({
  test: {
    // Vitest's default on two cores is one worker; the files wait on sockets, the database and
    // child processes between their bursts of work, so three run side by side. The real-time and
    // the browser projects run after them, in groups of their own.
    maxWorkers: 3,
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
      // the files that open a database
      ...onBothDatabases({
        ...server,
        test: {
          ...server.test,
          name: 'server',
          include: serverFiles.database.filter(notRealTime),
          // one process per worker, not per file (see "Tests" in docs/architecture.md)
          isolate: false,
        },
      }),
      {
        // the same on either database (pure functions, parsers, planners, doubles): run once
        ...server,
        test: {
          ...server.test,
          name: 'server-unit',
          include: serverFiles.other.filter(notRealTime),
          globalSetup: [],
          isolate: false,
        },
      },
      // after every other file (a group of their own), so no CPU-bound test delays the timers
      // their calls keep time by; the calls mostly wait on those timers, so three run at once
      ...onBothDatabases({
        ...server,
        test: {
          ...server.test,
          name: 'server-realtime',
          include: [...realTime],
          sequence: { groupOrder: 1 },
          maxWorkers: REAL_TIME_WORKERS,
        },
      }),
      {
        ...server,
        test: {
          ...server.test,
          name: 'server-realtime-once',
          include: realTimeOnce,
          env: { TEST_DATABASE_URL: '' },
          sequence: { groupOrder: 1 },
          maxWorkers: REAL_TIME_WORKERS,
        },
      },
      {
        ...server,
        test: {
          ...server.test,
          name: 'server-browser',
          include: browserRealTime,
          env: { TEST_DATABASE_URL: '' },
          // a page shows what the server did in the background: wait as long as a step may
          expect: { poll: { timeout: 15_000 } },
          // after the real-time group: Chromium's CPU would delay the timers of live calls
          sequence: { groupOrder: 2 },
          // two browsers at a time: each renders on the CPU
          maxWorkers: 2,
        },
      },
      {
        // the console's pure modules (its pages are tested in Chromium with the server's tests)
        ...source,
        test: { name: 'console', root: './console', include: ['src/**/*.test.ts'] },
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
      ...onBothDatabases({
        ...source,
        test: {
          name: 'example-host-app',
          root: './examples/host-app',
          include: ['test/**/*.test.ts'],
          // the host serves the console: its build, when \`pnpm test\` runs without \`pnpm build\`
          globalSetup: ['../../packages/server/test/console/console-build-setup.ts'],
        },
      }),
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
      {
        ...source,
        test: {
          name: 'example-production-monitoring',
          root: './examples/production-monitoring',
          include: ['test/**/*.test.ts'],
        },
      },
    ],
  },
});
