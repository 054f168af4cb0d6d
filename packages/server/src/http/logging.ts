import type { IncomingMessage, ServerResponse } from 'node:http';
import type { RequestHandler } from 'express';
import type { Logger } from 'pino';
import { pinoHttp } from 'pino-http';

/**
 * One structured line per request: id, method, path, status and duration. Headers and bodies are
 * never serialised, so no credential can reach the log whatever logger a host app passes in (and
 * a line costs a fraction of pino-http's default serialisers).
 */
export const requestLogger = (logger: Logger): RequestHandler =>
  pinoHttp({
    logger,
    genReqId: (req) => (req as { id?: string }).id ?? '',
    serializers: {
      req: (req: IncomingMessage & { id?: string }) => ({ id: req.id, method: req.method, url: req.url }),
      res: (res: ServerResponse) => ({ statusCode: res.statusCode }),
    },
    customLogLevel: (_req, res, err) =>
      err || res.statusCode >= 500 ? 'error' : res.statusCode >= 400 ? 'warn' : 'info',
    customSuccessMessage: () => 'request:completed',
    customErrorMessage: () => 'request:failed',
  });
