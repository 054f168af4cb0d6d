import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { z } from 'zod';

const csv = z.string().transform((s) =>
  s
    .split(',')
    .map((v) => v.trim())
    .filter(Boolean),
);

const int = (fallback: number) => z.coerce.number().int().positive().default(fallback);

/** Everything the server reads from options and environment, validated once at start. */
export const ConfigSchema = z.object({
  nodeEnv: z.enum(['development', 'test', 'production']).default('development'),
  port: z.coerce.number().int().min(0).max(65_535).default(3000),
  /** Postgres connection string; when absent the embedded PGlite database in `dataDir` is used. */
  databaseUrl: z.string().url().optional(),
  /** Folder for the embedded database, generated secrets and blobs. @default ./.voice-eval */
  dataDir: z.string().min(1).default('./.voice-eval'),
  /** HS256 key for access tokens: at least 32 characters. */
  jwtSecret: z.string().min(32, 'must be at least 32 characters'),
  /** AES-256-GCM key for secrets at rest: 32 bytes, base64 or 64 hex characters. */
  encryptionKey: z.string().min(1),
  /** Retired encryption keys (same forms), still used to open secrets sealed before a rotation. */
  previousEncryptionKeys: z.union([z.array(z.string()), csv]).default([]),
  /** Access token lifetime in seconds. @default 900 */
  accessTokenTtlSeconds: int(900),
  /** Refresh token lifetime in seconds. @default 2592000 (30 days) */
  refreshTokenTtlSeconds: int(30 * 24 * 3600),
  /** Origins allowed by CORS; empty allows none (same-origin only). */
  corsOrigins: z.union([z.array(z.string()), csv]).default([]),
  /** Largest JSON body accepted, in bytes. @default 1048576 */
  jsonBodyLimitBytes: int(1024 * 1024),
  /** Largest uploaded file, in bytes. @default 104857600 (100 MiB) */
  uploadLimitBytes: int(100 * 1024 * 1024),
  /** Largest ambient-audio upload of a persona, in bytes. @default 20971520 (20 MiB) */
  ambientAudioLimitBytes: int(20 * 1024 * 1024),
  /** Express `trust proxy` setting: false, true, a hop count, or a comma-separated list of subnets. */
  trustProxy: z.union([z.boolean(), z.number(), z.string()]).default(false),
  signupEnabled: z.boolean().default(true),
  /** Requests per minute per client IP on login, signup and refresh. @default 20 */
  authRateLimitPerMinute: int(20),
  /** Items each background task works on at once in this instance; 0 runs no workers. @default 4 */
  workerConcurrency: z.coerce.number().int().min(0).max(256).default(4),
  /**
   * Hosts (exact names) or IP addresses/CIDRs that server-side fetches of user URLs (recordings) may
   * reach although they are private, loopback or link-local; everything else of that kind is refused.
   */
  fetchAllowlist: z.union([z.array(z.string()), csv]).default([]),
  /** Deadline of one server-side fetch of a user URL, redirects included, in ms. @default 30000 */
  fetchTimeoutMs: int(30_000),
  /** Lease of a call-import row being diarised, renewed while it is worked on, in ms. @default 60000 */
  diarisationLeaseMs: int(60_000),
  /** Leases a row may lose (its worker died) before it fails with `attempts_exhausted`. @default 3 */
  diarisationMaxAttempts: int(3),
  /**
   * Dispatched items in flight at once across every instance sharing the database; evaluation rows
   * and simulated conversations count together (so for the limits below). @default 64
   */
  globalLimit: int(64),
  /** Dispatched items (evaluation rows, simulated conversations) in flight at once for one organization. @default 32 */
  orgLimit: int(32),
  /** Dispatched items in flight at once for one workspace. @default 16 */
  workspaceLimit: int(16),
  /** Items of one job (an evaluation, a suite run) in flight at once. @default 8 */
  jobLimit: int(8),
  /** Most items one dispatch pass hands out. @default 32 */
  fairDispatchBatchSize: int(32),
  /** Pause of an instance's dispatcher for a source once every slot it could fill is taken, in seconds. @default 2 */
  atCapacityBackoffSeconds: z.coerce.number().int().min(0).max(3600).default(2),
  /** Lease of an evaluation row being scored, renewed while it is worked on, in ms. @default 60000 */
  evaluationLeaseMs: int(60_000),
  /** Leases an evaluation row may lose before it fails with `attempts_exhausted`. @default 3 */
  evaluationMaxAttempts: int(3),
  /** How often each instance looks for suites whose schedule is due, in ms. @default 15000 */
  scheduleTickMs: int(15_000),
  /** Simulated calls one instance holds at once (they mostly wait on the agent and the persona model). @default 32 */
  simulationConcurrency: z.coerce.number().int().min(0).max(1024).default(32),
  /** Lease of a simulated call being held, renewed while the call goes on, in ms. @default 60000 */
  simulationLeaseMs: int(60_000),
  /** Leases a simulated call may lose (its worker died) before it fails with `attempts_exhausted`. @default 3 */
  simulationMaxAttempts: int(3),
  /** How long the agent may take to answer one turn of a simulated call, in ms. @default 30000 */
  simulationTurnTimeoutMs: int(30_000),
  logLevel: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
});

export type Config = z.infer<typeof ConfigSchema>;
export type ConfigInput = z.input<typeof ConfigSchema>;

const ENV_KEYS: Record<string, keyof ConfigInput> = {
  NODE_ENV: 'nodeEnv',
  PORT: 'port',
  DATABASE_URL: 'databaseUrl',
  VOICE_EVAL_DATA_DIR: 'dataDir',
  VOICE_EVAL_JWT_SECRET: 'jwtSecret',
  VOICE_EVAL_ENCRYPTION_KEY: 'encryptionKey',
  VOICE_EVAL_ACCESS_TOKEN_TTL_SECONDS: 'accessTokenTtlSeconds',
  VOICE_EVAL_REFRESH_TOKEN_TTL_SECONDS: 'refreshTokenTtlSeconds',
  VOICE_EVAL_CORS_ORIGINS: 'corsOrigins',
  VOICE_EVAL_JSON_BODY_LIMIT_BYTES: 'jsonBodyLimitBytes',
  VOICE_EVAL_UPLOAD_LIMIT_BYTES: 'uploadLimitBytes',
  VOICE_EVAL_AMBIENT_AUDIO_LIMIT_BYTES: 'ambientAudioLimitBytes',
  VOICE_EVAL_PREVIOUS_ENCRYPTION_KEYS: 'previousEncryptionKeys',
  VOICE_EVAL_TRUST_PROXY: 'trustProxy',
  VOICE_EVAL_LOG_LEVEL: 'logLevel',
  VOICE_EVAL_WORKER_CONCURRENCY: 'workerConcurrency',
  VOICE_EVAL_FETCH_ALLOWLIST: 'fetchAllowlist',
  VOICE_EVAL_FETCH_TIMEOUT_MS: 'fetchTimeoutMs',
  VOICE_EVAL_DIARISATION_LEASE_MS: 'diarisationLeaseMs',
  VOICE_EVAL_DIARISATION_MAX_ATTEMPTS: 'diarisationMaxAttempts',
  VOICE_EVAL_GLOBAL_LIMIT: 'globalLimit',
  VOICE_EVAL_ORG_LIMIT: 'orgLimit',
  VOICE_EVAL_WORKSPACE_LIMIT: 'workspaceLimit',
  VOICE_EVAL_JOB_LIMIT: 'jobLimit',
  VOICE_EVAL_FAIR_DISPATCH_BATCH_SIZE: 'fairDispatchBatchSize',
  VOICE_EVAL_AT_CAPACITY_BACKOFF_SECONDS: 'atCapacityBackoffSeconds',
  VOICE_EVAL_EVALUATION_LEASE_MS: 'evaluationLeaseMs',
  VOICE_EVAL_EVALUATION_MAX_ATTEMPTS: 'evaluationMaxAttempts',
  VOICE_EVAL_SCHEDULE_TICK_MS: 'scheduleTickMs',
  VOICE_EVAL_SIMULATION_CONCURRENCY: 'simulationConcurrency',
  VOICE_EVAL_SIMULATION_LEASE_MS: 'simulationLeaseMs',
  VOICE_EVAL_SIMULATION_MAX_ATTEMPTS: 'simulationMaxAttempts',
  VOICE_EVAL_SIMULATION_TURN_TIMEOUT_MS: 'simulationTurnTimeoutMs',
};

const fromEnv = (env: NodeJS.ProcessEnv): Partial<ConfigInput> => {
  const out: Record<string, unknown> = {};
  for (const [name, key] of Object.entries(ENV_KEYS)) {
    const value = env[name];
    if (value !== undefined && value !== '') out[key] = value;
  }
  if (env.VOICE_EVAL_SIGNUP_ENABLED) out.signupEnabled = env.VOICE_EVAL_SIGNUP_ENABLED === 'true';
  return out as Partial<ConfigInput>;
};

/** Thrown when the configuration is invalid; the message lists every problem. */
export class ConfigError extends Error {
  override name = 'ConfigError';
}

/**
 * Reads a secret kept in the data folder, creating it on first use. Only for the embedded
 * default: in production the secrets must be given explicitly.
 */
const dataDirSecret = (dataDir: string, file: string): string => {
  const path = join(dataDir, file);
  if (existsSync(path)) return readFileSync(path, 'utf8').trim();
  mkdirSync(dataDir, { recursive: true });
  const secret = randomBytes(32).toString('base64');
  writeFileSync(path, `${secret}\n`, { mode: 0o600 });
  return secret;
};

/**
 * Builds the configuration from explicit options over environment variables. Fails fast with a
 * readable message. Outside production, missing secrets are generated once and kept in the data folder.
 */
export const loadConfig = (
  options: Partial<ConfigInput> = {},
  env: NodeJS.ProcessEnv = process.env,
): Config => {
  const input: Partial<ConfigInput> = { ...fromEnv(env), ...definedOnly(options) };
  const production = (input.nodeEnv ?? 'development') === 'production';
  const dataDir = resolve(input.dataDir ?? './.voice-eval');
  if (!production) {
    input.jwtSecret ??= dataDirSecret(dataDir, 'jwt-secret');
    input.encryptionKey ??= dataDirSecret(dataDir, 'encryption-key');
  }
  const parsed = ConfigSchema.safeParse({ ...input, dataDir });
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  - ${i.path.join('.') || 'config'}: ${i.message}`);
    throw new ConfigError(`Invalid voice-eval configuration:\n${lines.join('\n')}`);
  }
  const key = decodeKey(parsed.data.encryptionKey);
  if (key.length !== 32) {
    throw new ConfigError('Invalid voice-eval configuration:\n  - encryptionKey: must decode to 32 bytes');
  }
  return parsed.data;
};

/** The 32-byte encryption key from its hex or base64 form. */
export const decodeKey = (value: string): Buffer =>
  /^[0-9a-f]{64}$/i.test(value) ? Buffer.from(value, 'hex') : Buffer.from(value, 'base64');

const definedOnly = <T extends object>(o: T): Partial<T> =>
  Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as Partial<T>;
