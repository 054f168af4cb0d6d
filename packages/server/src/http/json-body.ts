import { isUtf8 } from 'node:buffer';
import type { IncomingMessage, ServerResponse } from 'node:http';
import express, { type RequestHandler } from 'express';

/** A UTF-8 body with a bad byte; the error handler answers it as a 400 `bad_request`. */
class InvalidUtf8Error extends Error {
  readonly type = 'entity.encoding.invalid';
  readonly status = 400;
  constructor() {
    super('The body is not valid UTF-8.');
  }
}

/**
 * The JSON parser of every route: `application/json` and `application/*+json` bodies up to
 * `limit` bytes, and `keep` (when given) handed the exact bytes as they came. A JSON body must be
 * UTF-8 (RFC 8259 §8.1): the parser would decode a bad byte to U+FFFD and the request would store
 * text the client never sent, so such a body is refused. Bodies in a UTF-16 or UTF-32 charset
 * (the parser's other encodings) are the decoder's to check.
 */
export const jsonBody = (
  limit: number,
  keep?: (req: IncomingMessage, res: ServerResponse, bytes: Buffer) => void,
): RequestHandler =>
  express.json({
    limit,
    type: ['application/json', 'application/*+json'],
    verify: (req, res, bytes, encoding) => {
      if (encoding === 'utf-8' && !isUtf8(bytes)) throw new InvalidUtf8Error();
      keep?.(req, res, bytes);
    },
  });
