import pino, { type Logger } from 'pino';

/** Header values never written to logs. */
export const REDACTED_PATHS = [
  'req.headers.authorization',
  'req.headers["x-api-key"]',
  'req.headers["x-service-api-key"]',
  'req.headers.cookie',
  'res.headers["set-cookie"]',
];

/** The server's logger: JSON lines on stdout, credentials redacted. */
export const createLogger = (level: string): Logger =>
  pino({
    level,
    redact: { paths: [...REDACTED_PATHS, '*.api_key', '*.password', '*.secret_key'], censor: '[redacted]' },
  });
