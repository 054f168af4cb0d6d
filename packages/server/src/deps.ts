import type { Logger } from 'pino';
import type { Config } from './config.js';
import type { Db } from './db/knex.js';
import type { AuthCache } from './modules/auth/cache.js';

/** Everything services and routes depend on, created once by `createVoiceEvalServer`. */
export type Deps = {
  config: Config;
  db: Db;
  logger: Logger;
  /** The current time; tests inject a clock to move past expiries. */
  now: () => Date;
  authCache: AuthCache;
};
