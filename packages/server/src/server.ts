import type { Server } from 'node:http';
import type { Express } from 'express';
import type { Logger } from 'pino';
import { createApp } from './app.js';
import { type Config, type ConfigInput, loadConfig } from './config.js';
import { createSecretBox } from './crypto/index.js';
import { createDb, type Db } from './db/knex.js';
import { migrate } from './db/migrate.js';
import type { Deps } from './deps.js';
import { createFairDispatcher, limitsOf } from './dispatch/fair-dispatcher.js';
import { clientErrorHandler } from './http/problem.js';
import { createLogger } from './logger.js';
import { AuthCache } from './modules/auth/cache.js';
import { createAddressPolicy } from './net/address-policy.js';
import { Readiness } from './ops/health.js';
import { ServerMetrics } from './ops/metrics.js';
import { createProviderGateway, readDefaultProviderConfig } from './providers/index.js';
import { type BlobStorage, createStorage } from './storage/index.js';
import { WorkerPool } from './workers/pool.js';
import { registerTasks } from './workers/tasks.js';

export type VoiceEvalServerOptions = Partial<ConfigInput> & {
  /** A logger to use instead of the default pino logger on stdout. */
  logger?: Logger;
  /** An existing Knex instance (tests); otherwise one is created from the configuration. */
  db?: Db;
  /** Environment to read configuration from. @default process.env */
  env?: NodeJS.ProcessEnv;
  /** Blob storage to use instead of the configured one (`VOICE_EVAL_BLOB_STORE`: files under `<dataDir>/blobs` or an S3 bucket). */
  storage?: BlobStorage;
};

export type VoiceEvalServer = {
  app: Express;
  config: Config;
  deps: Deps;
  /** Applies pending migrations (also done by `listen`). */
  migrate(): Promise<void>;
  /**
   * Migrates and starts the background workers without listening: for a host app that mounts
   * `app` in its own server. Idempotent.
   */
  start(): Promise<void>;
  /** Starts (see `start`), then listens on `port` (default: the configured port; 0 picks a free one). */
  listen(port?: number): Promise<{ server: Server; url: string }>;
  /** Stops accepting connections, drains in-flight requests, stops the workers, then closes the database. */
  close(): Promise<void>;
};

/** Builds the server from options and environment: configuration, database, logger and app. */
export const createVoiceEvalServer = (options: VoiceEvalServerOptions = {}): VoiceEvalServer => {
  const { logger: givenLogger, db: givenDb, env, storage: givenStorage, ...configOptions } = options;
  const config = loadConfig(configOptions, env);
  const logger = givenLogger ?? createLogger(config.logLevel);
  const db =
    givenDb ??
    (config.databaseUrl
      ? createDb({ kind: 'postgres', url: config.databaseUrl })
      : createDb({ kind: 'pglite', dataDir: config.dataDir }));
  const metrics = new ServerMetrics({ defaultMetrics: config.metrics });
  const deps: Deps = {
    config,
    db,
    logger,
    now: () => new Date(),
    authCache: new AuthCache(),
    storage: givenStorage ?? createStorage(config, env ?? process.env),
    secrets: createSecretBox(config),
    providers: createProviderGateway({
      defaults: readDefaultProviderConfig(env ?? process.env),
      env: env ?? process.env,
      logger,
      // organization endpoints under the fetch allow-list as configured now (tests swap deps.config)
      addressPolicy: () => createAddressPolicy(deps.config.fetchAllowlist),
      observe: metrics.observeModelCall,
      observeUsage: metrics.observeUsage,
    }),
    workers: new WorkerPool({ logger, concurrency: config.workerConcurrency }),
    dispatcher: createFairDispatcher({
      db,
      limits: limitsOf(config),
      leaseMs: config.evaluationLeaseMs,
      backoffSeconds: config.atCapacityBackoffSeconds,
      // read through deps at call time: tests move the clock and benchmarks swap the worker pool
      now: () => deps.now(),
      notify: (taskName) => deps.workers.notify(taskName),
    }),
    metrics,
    readiness: new Readiness(() => deps),
  };
  metrics.collectFrom({
    db,
    dispatcher: deps.dispatcher,
    limits: limitsOf(config),
    now: () => deps.now(),
    logger,
  });
  registerTasks(deps);
  const app = createApp(deps);
  let server: Server | undefined;

  const start = async () => {
    deps.readiness.migrating = true;
    try {
      await migrate(db);
    } finally {
      deps.readiness.migrating = false;
    }
    if (config.workerConcurrency > 0) deps.workers.start();
  };

  const listen = async (port = config.port) => {
    await start();
    const started = await new Promise<Server>((resolve, reject) => {
      const s = app.listen(port, () => resolve(s)).once('error', reject);
      s.on('clientError', clientErrorHandler);
    });
    server = started;
    const address = started.address();
    const boundPort = typeof address === 'object' && address ? address.port : port;
    return { server: started, url: `http://localhost:${boundPort}` };
  };

  const close = async () => {
    if (server) {
      const s = server;
      await new Promise<void>((resolve) => {
        s.close(() => resolve());
        s.closeIdleConnections();
      });
    }
    await deps.workers.stop();
    await db.destroy();
  };

  return { app, config, deps, migrate: () => migrate(db), start, listen, close };
};
