/**
 * @voice-eval/server: the voice-eval API as an Express app.
 *
 * `createVoiceEvalServer(options)` builds everything from options and environment and can listen
 * on its own; `app` can also be mounted in a host Express app beside its own routes.
 */
export { createApp } from './app.js';
export { type Config, ConfigError, type ConfigInput, loadConfig } from './config.js';
export { createDb, type Db, type DbOptions } from './db/knex.js';
export { migrate } from './db/migrate.js';
export type { Deps } from './deps.js';
export { type ConsoleRouterOptions, createConsoleRouter } from './http/console.js';
export type { ReadinessChecks, ReadinessReport } from './ops/health.js';
export type { ServerMetrics, WebhookDeliveryOutcome } from './ops/metrics.js';
export { createVoiceEvalServer, type VoiceEvalServer, type VoiceEvalServerOptions } from './server.js';
