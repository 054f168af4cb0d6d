import type { RequestHandler } from 'express';
import type { Logger } from 'pino';

/**
 * One structured line per request when it finishes: request id, method, path, status and
 * duration (warn for 4xx, error for 5xx). Headers and bodies are never logged, so no credential
 * reaches the log whatever logger a host app passes in. `req.log` is a child logger bound to the
 * request id, created only when something logs through it.
 */
export const requestLogger =
  (logger: Logger): RequestHandler =>
  (req, res, next) => {
    const started = performance.now();
    let child: Logger | undefined;
    Object.defineProperty(req, 'log', {
      configurable: true,
      get: () => {
        child ??= logger.child({ reqId: req.id });
        return child;
      },
    });
    res.on('finish', () => {
      const level = res.statusCode >= 500 ? 'error' : res.statusCode >= 400 ? 'warn' : 'info';
      if (!logger.isLevelEnabled(level)) return;
      logger[level](
        {
          reqId: req.id,
          req: { method: req.method, url: req.originalUrl },
          res: { statusCode: res.statusCode },
          responseTime: Math.round(performance.now() - started),
        },
        'request:completed',
      );
    });
    next();
  };
