import { isUtf8 } from 'node:buffer';
import type { IncomingMessage, ServerResponse } from 'node:http';
import express, { type RequestHandler } from 'express';

/** The error {@link utf8Body} throws; the error handler answers it as a 400 `bad_request`. */
class InvalidUtf8Error extends Error {
  readonly type = 'entity.encoding.invalid';
  readonly status = 400;
  constructor() {
    super('The body is not valid UTF-8.');
  }
}

/**
 * A JSON body must be UTF-8 (RFC 8259 §8.1). The parser would decode bad bytes to U+FFFD and the
 * request would store text the client never sent, so a body in UTF-8 with a bad byte is refused.
 * Bodies in a UTF-16 or UTF-32 charset (the parser's other encodings) are the decoder's to check.
 */
const utf8Body = (_req: IncomingMessage, _res: ServerResponse, bytes: Buffer, encoding: string) => {
  if (encoding === 'utf-8' && !isUtf8(bytes)) throw new InvalidUtf8Error();
};

/**
 * The JSON parser of every route: `application/json` and `application/*+json` bodies up to
 * `limit` bytes, UTF-8 checked, and `keep` (when given) handed the exact bytes as they came.
 */
export const jsonBody = (
  limit: number,
  keep?: (req: IncomingMessage, res: ServerResponse, bytes: Buffer) => void,
): RequestHandler =>
  express.json({
    limit,
    type: ['application/json', 'application/*+json'],
    verify: (req, res, bytes, encoding) => {
      utf8Body(req, res, bytes, encoding);
      keep?.(req, res, bytes);
    },
  });
