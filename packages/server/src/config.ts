import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { z } from 'zod';
import { outboundFields } from './config/outbound.js';
import { csv, int, trueOrFalse } from './config/parsers.js';
import { storageFields } from './config/storage.js';
import { workFields } from './config/work.js';
import { parseTrustProxy, type TrustProxy } from './http/trust-proxy.js';

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
  /**
   * The base URL clients reach the API at (with the path prefix a host app mounts it under), for
   * the links the server hands out (signed recording URLs). Unset: taken from each request, its
   * protocol (`X-Forwarded-Proto` under `trustProxy`) and `Host`; links to the console (a suite
   * run's `console_url`, also sent in webhooks) are then null.
   */
  publicUrl: z
    .string()
    .url()
    .refine((url) => /^https?:$/.test(new URL(url).protocol), 'must be an http or https URL')
    .transform((url) => url.replace(/\/+$/, ''))
    .optional(),
  /**
   * Also sends the refresh token as an HttpOnly, SameSite=Strict cookie scoped to the auth routes
   * (Secure over HTTPS), which refresh and logout read when the body has no token: a browser app
   * then keeps only the access token, in memory. @default `console` (on when the console is served)
   */
  refreshTokenCookie: trueOrFalse,
  /** Serves the console (the browser app) at `/console`. @default true */
  console: trueOrFalse.default(true),
  /** Origins allowed by CORS; empty allows none (same-origin only). */
  corsOrigins: z.union([z.array(z.string()), csv]).default([]),
  /** Largest JSON body accepted, in bytes. @default 1048576 */
  jsonBodyLimitBytes: int(1024 * 1024),
  /** Largest uploaded file, in bytes. @default 104857600 (100 MiB) */
  uploadLimitBytes: int(100 * 1024 * 1024),
  /** Largest ambient-audio upload of a persona, in bytes. @default 20971520 (20 MiB) */
  ambientAudioLimitBytes: int(20 * 1024 * 1024),
  /**
   * Express `trust proxy` setting: `false` (the client IP is the socket's), `true` (trust every
   * hop), a hop count, or a comma-separated list of addresses, CIDRs and the presets `loopback`,
   * `linklocal`, `uniquelocal`. It decides `req.ip`, which keys the auth rate limit. @default false
   */
  trustProxy: z
    .union([z.boolean(), z.number(), z.string(), z.array(z.string())])
    .default(false)
    .transform((value, ctx): TrustProxy => {
      const parsed = parseTrustProxy(value);
      if (parsed.ok) return parsed.value;
      for (const message of parsed.problems) ctx.addIssue({ code: z.ZodIssueCode.custom, message });
      return z.NEVER;
    }),
  signupEnabled: z.boolean().default(true),
  /**
   * scrypt's cost (N) for new password hashes, a power of two; a stored hash keeps the cost it was
   * made with. Below 16384 only with `nodeEnv: 'test'`, where it makes each signup cheap.
   * @default 16384
   */
  passwordHashCost: z
    .number()
    .int()
    .min(1024)
    .max(1_048_576)
    .refine((n) => (n & (n - 1)) === 0, 'must be a power of two')
    .default(16_384),
  /** Requests per minute per client IP on login, signup and refresh. @default 20 */
  authRateLimitPerMinute: int(20),
  logLevel: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  /** Serves Prometheus metrics on `GET /metrics` (and times every request for them). @default false */
  metrics: z
    .union([z.boolean(), z.enum(['true', 'false', '1', '0']).transform((v) => v === 'true' || v === '1')])
    .default(false),
  /** A bearer token `GET /metrics` requires, when set: at least 16 characters. */
  metricsToken: z.string().min(16, 'must be at least 16 characters').optional(),
  ...workFields,
  ...storageFields,
  ...outboundFields,
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
  VOICE_EVAL_PUBLIC_URL: 'publicUrl',
  VOICE_EVAL_REFRESH_TOKEN_COOKIE: 'refreshTokenCookie',
  VOICE_EVAL_CONSOLE: 'console',
  VOICE_EVAL_CORS_ORIGINS: 'corsOrigins',
  VOICE_EVAL_JSON_BODY_LIMIT_BYTES: 'jsonBodyLimitBytes',
  VOICE_EVAL_UPLOAD_LIMIT_BYTES: 'uploadLimitBytes',
  VOICE_EVAL_AMBIENT_AUDIO_LIMIT_BYTES: 'ambientAudioLimitBytes',
  VOICE_EVAL_PREVIOUS_ENCRYPTION_KEYS: 'previousEncryptionKeys',
  VOICE_EVAL_TRUST_PROXY: 'trustProxy',
  VOICE_EVAL_AUTH_RATE_LIMIT_PER_MINUTE: 'authRateLimitPerMinute',
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
  VOICE_EVAL_METRICS: 'metrics',
  VOICE_EVAL_METRICS_TOKEN: 'metricsToken',
  VOICE_EVAL_BLOB_STORE: 'blobStore',
  VOICE_EVAL_S3_BUCKET: 's3Bucket',
  VOICE_EVAL_S3_PREFIX: 's3Prefix',
  VOICE_EVAL_S3_ENDPOINT: 's3Endpoint',
  VOICE_EVAL_S3_REGION: 's3Region',
  VOICE_EVAL_S3_FORCE_PATH_STYLE: 's3ForcePathStyle',
  VOICE_EVAL_WEBHOOK_TIMEOUT_MS: 'webhookTimeoutMs',
  VOICE_EVAL_RECORDING_FETCH_MAX_ATTEMPTS: 'recordingFetchMaxAttempts',
  VOICE_EVAL_RECORDING_FETCH_RETRY_BASE_MS: 'recordingFetchRetryBaseMs',
  VOICE_EVAL_RECONCILE_INTERVAL_MS: 'reconcileIntervalMs',
  VOICE_EVAL_RECONCILE_LOOKBACK_MS: 'reconcileLookbackMs',
  VOICE_EVAL_VAPI_API_URL: 'vapiApiUrl',
  VOICE_EVAL_RETELL_API_URL: 'retellApiUrl',
  VOICE_EVAL_TWILIO_API_URL: 'twilioApiUrl',
  VOICE_EVAL_ELEVENLABS_API_URL: 'elevenlabsApiUrl',
  VOICE_EVAL_WEBHOOK_RETRY_BASE_MS: 'webhookRetryBaseMs',
  VOICE_EVAL_WEBHOOK_RETRY_MAX_DELAY_MS: 'webhookRetryMaxDelayMs',
  VOICE_EVAL_WEBHOOK_MAX_ATTEMPTS: 'webhookMaxAttempts',
  VOICE_EVAL_WEBHOOK_DISABLE_AFTER_MS: 'webhookDisableAfterMs',
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
  // the console keeps its session in the refresh cookie: on with it unless set otherwise
  const parsed = ConfigSchema.safeParse({
    ...input,
    dataDir,
    refreshTokenCookie: input.refreshTokenCookie ?? input.console ?? true,
  });
  const problems = [...(parsed.success ? [] : parsed.error.issues), ...crossFieldIssues(input)];
  if (!parsed.success || problems.length > 0) {
    const lines = problems.map((i) => `  - ${i.path.join('.') || 'config'}: ${i.message}`);
    throw new ConfigError(`Invalid voice-eval configuration:\n${lines.join('\n')}`);
  }
  const key = decodeKey(parsed.data.encryptionKey);
  if (key.length !== 32) {
    throw new ConfigError('Invalid voice-eval configuration:\n  - encryptionKey: must decode to 32 bytes');
  }
  return parsed.data;
};

/** Rules across fields, checked beside the per-field ones so every problem is listed at once. */
const crossFieldIssues = (input: Partial<ConfigInput>): Array<{ path: string[]; message: string }> => [
  ...(input.blobStore === 's3' && !input.s3Bucket
    ? [{ path: ['s3Bucket'], message: 'is required when blobStore is s3 (VOICE_EVAL_S3_BUCKET)' }]
    : []),
  ...(input.passwordHashCost !== undefined && input.passwordHashCost < 16_384 && input.nodeEnv !== 'test'
    ? [{ path: ['passwordHashCost'], message: 'is below 16384, which only tests may use' }]
    : []),
];

/** The 32-byte encryption key from its hex or base64 form. */
export const decodeKey = (value: string): Buffer =>
  /^[0-9a-f]{64}$/i.test(value) ? Buffer.from(value, 'hex') : Buffer.from(value, 'base64');

const definedOnly = <T extends object>(o: T): Partial<T> =>
  Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as Partial<T>;
