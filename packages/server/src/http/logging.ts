import type { Express, Request, RequestHandler } from 'express';
import type { Logger } from 'pino';
import { redactUrl } from './redact-url.js';

const childLogger = Symbol('voice-eval.log');

/**
 * One structured line per request when it finishes: request id, method, path, status and
 * duration (warn for 4xx, error for 5xx). Headers and bodies are never logged, and the URL is
 * logged with its secrets redacted (`redactUrl`), so no credential reaches the log whatever logger
 * a host app passes in.
 *
 * `req.log` is a child logger bound to the request id, created on first use. It is a getter on
 * the app's request prototype: defining it on each request object would take V8 off its fast
 * path for every later property access on that request (about 4% of throughput, bench/).
 */
export const requestLogger = (app: Express, logger: Logger): RequestHandler => {
  Object.defineProperty(app.request, 'log', {
    configurable: true,
    get(this: Request & { [childLogger]?: Logger }) {
      this[childLogger] ??= logger.child({ reqId: this.id });
      return this[childLogger];
    },
  });
  return (req, res, next) => {
    const started = performance.now();
    res.on('finish', () => {
      const level = res.statusCode >= 500 ? 'error' : res.statusCode >= 400 ? 'warn' : 'info';
      if (!logger.isLevelEnabled(level)) return;
      logger[level](
        {
          reqId: req.id,
          req: { method: req.method, url: redactUrl(req.originalUrl) },
          res: { statusCode: res.statusCode },
          responseTime: Math.round(performance.now() - started),
        },
        'request:completed',
      );
    });
    next();
  };
};
