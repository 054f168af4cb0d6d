import { randomUUID } from 'node:crypto';
import type { RequestHandler } from 'express';

const VALID = /^[\w.:-]{1,128}$/;

/** Gives every request an id (a valid incoming `X-Request-Id`, else a new UUID) and echoes it. */
export const requestId: RequestHandler = (req, res, next) => {
  const incoming = req.get('x-request-id');
  const id = incoming && VALID.test(incoming) ? incoming : randomUUID();
  req.id = id;
  res.setHeader('X-Request-Id', id);
  next();
};
