import { createHash } from 'node:crypto';
import type { NextFunction, Request, Response } from 'express';
import type { Deps } from '../deps.js';
import { ApiError } from '../errors.js';

/** Stored results are replayed for this long. */
const RETENTION_MS = 24 * 60 * 60 * 1000;
/** Response headers replayed with a stored result. */
const REPLAYED_HEADERS = ['content-type', 'location', 'deprecation', 'link'];

const principalOf = (req: Request): string | undefined => {
  const p = req.ctx?.principal;
  if (!p) return undefined;
  if (p.kind === 'user') return `user:${p.userId}:${req.ctx?.organizationId}`;
  return p.kind === 'api_key' ? `api_key:${p.apiKeyId}` : undefined;
};

const fingerprint = (req: Request): string =>
  createHash('sha256')
    .update(
      `${req.method} ${req.originalUrl}\n${req.ctx?.workspaceId ?? ''}\n${JSON.stringify(req.body ?? null)}`,
    )
    .digest('hex');

/**
 * `Idempotency-Key` on POST: the first request with a key runs and its response (below 500) is
 * stored for 24 h; a retry with the same key and body gets the stored response
 * (`Idempotent-Replayed: true`); the same key with another body is 422; a retry while the first is
 * still running is 409. Runs after `authenticate`, so keys are scoped to the caller.
 */
export const idempotency =
  (deps: Deps) =>
  (req: Request, res: Response, next: NextFunction): void => {
    const key = req.get('idempotency-key');
    const principal = principalOf(req);
    if (req.method !== 'POST' || !key || !principal) {
      next();
      return;
    }
    handle(deps, req, res, next, principal, key).catch(next);
  };

const handle = async (
  deps: Deps,
  req: Request,
  res: Response,
  next: NextFunction,
  principal: string,
  key: string,
) => {
  const now = deps.now();
  const hash = fingerprint(req);
  await deps.db('idempotency_records').where({ principal, key }).where('expires_at', '<=', now).delete();
  const inserted = await deps
    .db('idempotency_records')
    .insert({ principal, key, request_hash: hash, expires_at: new Date(now.getTime() + RETENTION_MS) })
    .onConflict(['principal', 'key'])
    .ignore()
    .returning('key');
  if (inserted.length === 0) return replay(deps, res, principal, key, hash);
  capture(deps, res, principal, key);
  next();
};

const replay = async (deps: Deps, res: Response, principal: string, key: string, hash: string) => {
  const stored = await deps.db('idempotency_records').where({ principal, key }).first();
  if (!stored || stored.request_hash !== hash) {
    throw new ApiError('idempotency_key_reused', 'This Idempotency-Key was used with a different request.');
  }
  if (stored.status == null) {
    throw new ApiError('conflict', 'A request with this Idempotency-Key is still being processed.');
  }
  for (const [name, value] of Object.entries(stored.headers ?? {})) res.setHeader(name, value as string);
  res.setHeader('Idempotent-Replayed', 'true');
  if (stored.body == null) res.status(stored.status).end();
  else res.status(stored.status).json(stored.body);
};

/**
 * Records the response: a JSON answer below 500 is stored before it is sent, so a client that
 * retries the moment it has the answer is replayed it rather than told the first is still running;
 * an answer without a body is stored once sent. A 5xx (or a connection dropped before an answer)
 * frees the key for a retry.
 */
const capture = (deps: Deps, res: Response, principal: string, key: string) => {
  const record = () => deps.db('idempotency_records').where({ principal, key });
  const headers = () =>
    JSON.stringify(
      Object.fromEntries(
        REPLAYED_HEADERS.filter((h) => res.hasHeader(h)).map((h) => [h, String(res.getHeader(h))]),
      ),
    );
  let stored = false;
  const json = res.json.bind(res);
  res.json = (value: unknown) => {
    if (res.statusCode >= 500) return json(value);
    stored = true;
    record()
      .update({ status: res.statusCode, body: JSON.stringify(value ?? null), headers: headers() })
      .catch((err: unknown) => deps.logger.warn({ err }, 'idempotency:record_failed'))
      .finally(() => json(value));
    return res;
  };
  res.on('close', () => {
    if (stored) return;
    const done = res.writableFinished && res.statusCode < 500;
    const write = done
      ? record().update({ status: res.statusCode, body: null, headers: headers() })
      : record().delete();
    write.catch((err: unknown) => deps.logger.warn({ err }, 'idempotency:record_failed'));
  });
};
