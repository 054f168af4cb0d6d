import type { Request } from 'express';
import type { Deps } from '../deps.js';

/**
 * The base URL clients reach this API at, for links the server hands out: the configured
 * `publicUrl`, else the request's protocol (`X-Forwarded-Proto` under `trustProxy`), `Host` and
 * the path a host app mounted the API under (what precedes `/api/v1/` in the request's URL).
 */
export const publicBaseUrl = (deps: Deps, req: Request): string => {
  if (deps.config.publicUrl) return deps.config.publicUrl;
  const path = req.originalUrl.split('?')[0] ?? '';
  const mount = path.slice(0, Math.max(0, path.lastIndexOf('/api/v1/')));
  return `${req.protocol}://${req.get('host') ?? 'localhost'}${mount}`;
};
