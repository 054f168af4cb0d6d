import type { Logger } from 'pino';
import type { Config } from './config.js';
import type { SecretBox } from './crypto/index.js';
import type { Db } from './db/knex.js';
import type { FairDispatcher } from './dispatch/fair-dispatcher.js';
import type { AuthCache } from './modules/auth/cache.js';
import type { Readiness } from './ops/health.js';
import type { ServerMetrics } from './ops/metrics.js';
import type { ProviderGateway } from './providers/index.js';
import type { BlobStorage } from './storage/index.js';
import type { WorkerPool } from './workers/pool.js';

/** Everything services and routes depend on, created once by `createVoiceEvalServer`. */
export type Deps = {
  config: Config;
  db: Db;
  logger: Logger;
  /** The current time; tests inject a clock to move past expiries. */
  now: () => Date;
  authCache: AuthCache;
  /** Blob storage (ambient audio, uploads); files under the data folder by default. */
  storage: BlobStorage;
  /** AES-256-GCM encryption of secrets at rest (provider keys, integration secrets). */
  secrets: SecretBox;
  /** LLM and speech-to-text providers: an organization's AI provider rows, else the server default. */
  providers: ProviderGateway;
  /** Background work of this instance; modules `notify` it after queueing rows. */
  workers: WorkerPool;
  /**
   * The fair dispatcher of this instance: every source of dispatched work (evaluation rows,
   * simulated conversations) registers here and shares its limits; `wake()` after adding work.
   */
  dispatcher: FairDispatcher;
  /** Prometheus metrics of this instance (served on `/metrics` when enabled); `webhookDelivery()` counts deliveries. */
  metrics: ServerMetrics;
  /** What `/readyz` checks: database, migrations, workers. */
  readiness: Readiness;
};
