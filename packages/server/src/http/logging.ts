import type { RequestHandler } from 'express';
import type { Logger } from 'pino';
import { pinoHttp } from 'pino-http';
import { REDACTED_PATHS } from '../logger.js';

/** One structured line per request, with the request id, and credentials redacted. */
export const requestLogger = (logger: Logger): RequestHandler =>
  pinoHttp({
    logger,
    genReqId: (req) => (req as { id?: string }).id ?? '',
    redact: { paths: REDACTED_PATHS, censor: '[redacted]' },
    customLogLevel: (_req, res, err) =>
      err || res.statusCode >= 500 ? 'error' : res.statusCode >= 400 ? 'warn' : 'info',
    customSuccessMessage: () => 'request:completed',
    customErrorMessage: () => 'request:failed',
  });
