import type { RequestHandler } from 'express';
import { rateLimit } from 'express-rate-limit';
import type { Deps } from '../deps.js';
import { ApiError } from '../errors.js';
import { sendProblem } from './problem.js';

/** Routes where guessing is the threat: login, signup, refresh, invitation accept. */
export const RATE_LIMITED_PATHS = [
  '/api/v1/auth/login',
  '/api/v1/auth/signup',
  '/api/v1/auth/refresh',
  '/api/v1/invitations/accept',
];

/**
 * A fixed window per client IP (per instance) on the credential endpoints; over the limit the
 * answer is 429 `rate_limited` with `Retry-After` in seconds. The client IP is `req.ip`, so it
 * follows the `trustProxy` setting.
 */
export const authRateLimit = (deps: Deps): RequestHandler => {
  if (deps.config.trustProxy === true) {
    deps.logger.warn(
      {
        detail:
          'every X-Forwarded-For hop is trusted, so a client can choose the IP the auth rate limit counts; give a hop count or the proxy addresses',
      },
      'config:trust_proxy_all',
    );
  }
  return rateLimit({
    windowMs: 60_000,
    limit: deps.config.authRateLimitPerMinute,
    standardHeaders: 'draft-7',
    legacyHeaders: false,
    // the library's own checks print stack traces to the console; the setting is validated at
    // start (config.ts) and a permissive one is logged above
    validate: { xForwardedForHeader: false, trustProxy: false },
    handler: (req, res, _next, options) => {
      const resetTime = (req as { rateLimit?: { resetTime?: Date } }).rateLimit?.resetTime;
      const seconds = resetTime
        ? Math.max(1, Math.ceil((resetTime.getTime() - Date.now()) / 1000))
        : options.windowMs / 1000;
      sendProblem(
        req,
        res,
        new ApiError('rate_limited', 'Too many attempts; retry later.', {
          headers: { 'Retry-After': String(seconds) },
        }),
      );
    },
  });
};
