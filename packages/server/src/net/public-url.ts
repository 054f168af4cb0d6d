import type { Request } from 'express';

/** The path a host app mounted the API under: what precedes `/api/v1/` in the request's path ('' at the root). */
export const mountPathOf = (req: Request): string => {
  const path = req.originalUrl.split('?')[0] ?? '';
  return path.slice(0, Math.max(0, path.lastIndexOf('/api/v1/')));
};

/**
 * The base URL clients reach this API at, for links the server hands out: the configured
 * `publicUrl`, else the request's protocol (`X-Forwarded-Proto` under `trustProxy`), `Host` and
 * the path a host app mounted the API under.
 */
export const publicBaseUrl = (publicUrl: string | undefined, req: Request): string =>
  publicUrl ?? `${req.protocol}://${req.get('host') ?? 'localhost'}${mountPathOf(req)}`;

/**
 * The console's page at `path` (`/runs/<id>`) under the configured `publicUrl`, for links read
 * away from any request (webhooks, the CLI): null without a public URL, or when the console is off.
 */
export const consoleUrl = (
  config: { publicUrl?: string | undefined; console: boolean },
  path: string,
): string | null =>
  config.publicUrl === undefined || !config.console ? null : `${config.publicUrl}/console${path}`;
