import type { Server } from 'node:http';
import type { Express } from 'express';
import type { Logger } from 'pino';
import { createApp } from './app.js';
import { type Config, type ConfigInput, loadConfig } from './config.js';
import { createDb, type Db } from './db/knex.js';
import { migrate } from './db/migrate.js';
import type { Deps } from './deps.js';
import { createLogger } from './logger.js';
import { AuthCache } from './modules/auth/cache.js';

export type VoiceEvalServerOptions = Partial<ConfigInput> & {
  /** A logger to use instead of the default pino logger on stdout. */
  logger?: Logger;
  /** An existing Knex instance (tests); otherwise one is created from the configuration. */
  db?: Db;
  /** Environment to read configuration from. @default process.env */
  env?: NodeJS.ProcessEnv;
};

export type VoiceEvalServer = {
  app: Express;
  config: Config;
  deps: Deps;
  /** Applies pending migrations (also done by `listen`). */
  migrate(): Promise<void>;
  /** Migrates, then listens on `port` (default: the configured port; 0 picks a free one). */
  listen(port?: number): Promise<{ server: Server; url: string }>;
  /** Stops accepting connections, drains in-flight requests, then closes the database. */
  close(): Promise<void>;
};

/** Builds the server from options and environment: configuration, database, logger and app. */
export const createVoiceEvalServer = (options: VoiceEvalServerOptions = {}): VoiceEvalServer => {
  const { logger: givenLogger, db: givenDb, env, ...configOptions } = options;
  const config = loadConfig(configOptions, env);
  const logger = givenLogger ?? createLogger(config.logLevel);
  const db =
    givenDb ??
    (config.databaseUrl
      ? createDb({ kind: 'postgres', url: config.databaseUrl })
      : createDb({ kind: 'pglite', dataDir: config.dataDir }));
  const deps: Deps = { config, db, logger, now: () => new Date(), authCache: new AuthCache() };
  const app = createApp(deps);
  let server: Server | undefined;

  const listen = async (port = config.port) => {
    await migrate(db);
    const started = await new Promise<Server>((resolve, reject) => {
      const s = app.listen(port, () => resolve(s)).once('error', reject);
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
    await db.destroy();
  };

  return { app, config, deps, migrate: () => migrate(db), listen, close };
};
