import { createHash, timingSafeEqual } from 'node:crypto';
import type { AppRoute } from '@ts-rest/core';
import { contract } from '@voice-eval/contract';
import type { Request, RequestHandler, Response } from 'express';
import type { Logger } from 'pino';
import { ApiError } from '../errors.js';
import { routesOf } from '../http/contract-routes.js';
import { sendProblem } from '../http/problem.js';
import type { Readiness } from './health.js';
import type { ServerMetrics } from './metrics.js';

/** The operations endpoints, outside `/api/v1`. */
export const OPS_PATHS = ['/healthz', '/readyz', '/metrics'] as const;

const digest = (value: string) => createHash('sha256').update(value).digest();

const bearerMatches = (req: Request, expected: Buffer): boolean => {
  const header = req.get('authorization') ?? '';
  const [scheme, token] = header.split(' ');
  if (scheme?.toLowerCase() !== 'bearer' || !token) return false;
  return timingSafeEqual(digest(token), expected);
};

const noStore = (res: Response) => res.setHeader('Cache-Control', 'no-store');

/**
 * `GET /healthz` (the process is up: no database), `GET /readyz` (database, migrations, workers:
 * 200 or 503 with the failing checks named) and, when metrics are on, `GET /metrics` (Prometheus
 * text; with `metricsToken` set, only for `Authorization: Bearer <token>`). Unauthenticated
 * otherwise, no tenant data, no rate limit; mounted before the request log, so they are logged at
 * debug level only. Every other request passes straight on.
 */
export const opsEndpoints = (options: {
  readiness: Readiness;
  metrics: ServerMetrics;
  metricsEnabled: boolean;
  metricsToken: string | undefined;
  logger: Logger;
}): RequestHandler => {
  const { readiness, metrics, logger } = options;
  const token = options.metricsToken ? digest(options.metricsToken) : undefined;
  return (req, res, next) => {
    // API requests (nearly all) leave at once, before the path is parsed
    if ((req.method !== 'GET' && req.method !== 'HEAD') || req.url.startsWith('/api/')) {
      next();
      return;
    }
    const path = req.path;
    if (path === '/healthz') {
      noStore(res);
      res.json({ status: 'ok' });
    } else if (path === '/readyz') {
      readiness.check().then((report) => {
        noStore(res);
        res.status(report.status === 'ready' ? 200 : 503).json(report);
      }, next);
    } else if (path === '/metrics' && options.metricsEnabled) {
      if (token && !bearerMatches(req, token)) {
        res.setHeader('WWW-Authenticate', 'Bearer realm="metrics"');
        sendProblem(req, res, new ApiError('unauthenticated', 'Send the metrics bearer token.'));
        return;
      }
      metrics.registry.metrics().then((text) => {
        noStore(res);
        res.setHeader('Content-Type', metrics.registry.contentType);
        res.end(text);
      }, next);
    } else {
      next();
      return;
    }
    res.once('finish', () => logger.debug({ path, status: res.statusCode }, 'ops:request'));
  };
};

/** Paths without parameters, per method: a request answered before routing still gets its template. */
const staticTemplates = (): Map<string, Set<string>> => {
  const byMethod = new Map<string, Set<string>>();
  for (const route of routesOf(contract)) {
    if (route.path.includes(':')) continue;
    const set = byMethod.get(route.method) ?? new Set();
    set.add(route.path);
    byMethod.set(route.method, set);
  }
  return byMethod;
};

type Routed = Request & { tsRestRoute?: AppRoute };

/**
 * Times every request into `voice_eval_http_request_duration_seconds` by method, route template
 * and status: the contract's path template of the matched route (`/api/v1/workspaces/:workspace_id`,
 * never the path with ids), another matched Express route's path, the template of a
 * parameter-free contract path answered before routing (a rate-limited login), `/docs/assets/*`,
 * else `unmatched`. Labels stay few whatever the requests.
 */
export const httpMetrics = (metrics: ServerMetrics): RequestHandler => {
  const templates = staticTemplates();
  const routeOf = (req: Routed): string => {
    if (req.tsRestRoute) return req.tsRestRoute.path;
    if (req.route) return `${req.baseUrl}${(req.route as { path: string }).path}`;
    const path = req.path;
    if (templates.get(req.method)?.has(path)) return path;
    if (path.startsWith('/docs/assets/')) return '/docs/assets/*';
    return 'unmatched';
  };
  return (req, res, next) => {
    const started = performance.now();
    res.once('finish', () => {
      metrics.observeHttp(req.method, routeOf(req), res.statusCode, (performance.now() - started) / 1000);
    });
    next();
  };
};
