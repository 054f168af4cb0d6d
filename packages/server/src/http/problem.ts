import { randomUUID } from 'node:crypto';
import type { Duplex } from 'node:stream';
import type { RequestValidationError } from '@ts-rest/express';
import { ERROR_STATUS, type ErrorCode, type Problem } from '@voice-eval/contract';
import type { ErrorRequestHandler, Request, RequestHandler, Response } from 'express';
import type { ZodError } from 'zod';
import { ApiError, type FieldError } from '../errors.js';

const TITLES: Record<ErrorCode, string> = {
  bad_request: 'Bad request',
  unauthenticated: 'Authentication required',
  forbidden: 'Forbidden',
  interactive_user_required: 'Interactive user required',
  feature_not_available: 'Feature not available on this plan',
  not_found: 'Not found',
  conflict: 'Conflict',
  in_use: 'Resource in use',
  payload_too_large: 'Payload too large',
  unsupported_media_type: 'Unsupported media type',
  range_not_satisfiable: 'Range not satisfiable',
  validation_failed: 'Validation failed',
  rule_violation: 'Rule violated',
  idempotency_key_reused: 'Idempotency key reused with a different request',
  ai_provider_not_configured: 'AI provider not configured',
  rate_limited: 'Too many requests',
  internal: 'Internal server error',
  provider_error: 'AI provider failed',
};

/** Writes an RFC 9457 problem response. The only place errors become HTTP responses. */
export const sendProblem = (req: Request, res: Response, error: ApiError): void => {
  const body: Problem = {
    type: `urn:voice-eval:problem:${error.code}`,
    title: TITLES[error.code],
    status: ERROR_STATUS[error.code],
    code: error.code,
    request_id: String(req.id ?? ''),
    ...(error.detail ? { detail: error.detail } : {}),
    ...(error.errors ? { errors: error.errors } : {}),
  };
  for (const [name, value] of Object.entries(error.headers ?? {})) res.setHeader(name, value);
  res.status(body.status).type('application/problem+json').json(body);
};

const fieldErrors = (where: string, error: ZodError | null): FieldError[] =>
  (error?.issues ?? []).map((issue) => ({
    path: [where, ...issue.path].join('.'),
    message: issue.message,
  }));

/** ts-rest's request validation failures as 422 problems listing every field. */
export const requestValidationErrorHandler = (
  err: RequestValidationError,
  req: Request,
  res: Response,
): void => {
  const errors = [
    ...fieldErrors('params', err.pathParams),
    ...fieldErrors('headers', err.headers),
    ...fieldErrors('query', err.query),
    ...fieldErrors('body', err.body),
  ];
  sendProblem(
    req,
    res,
    new ApiError('validation_failed', 'The request does not match the API schema.', { errors }),
  );
};

/** Unknown routes: a 404 problem. */
export const notFoundHandler: RequestHandler = (req, res) => {
  sendProblem(req, res, new ApiError('not_found', `No route for ${req.method} ${req.path}`));
};

type HttpishError = Error & { type?: string; status?: number; code?: string };

/**
 * The errors busboy (under multer) raises for a body that is not valid multipart: no or a bad
 * boundary, a body that ends early or never starts, a malformed part header (e.g. NUL in a file
 * name). Plain `Error`s told apart by message only, so they are matched exactly.
 */
const MALFORMED_MULTIPART = new Set([
  'Malformed content type',
  'Malformed part header',
  'Missing Content-Type',
  'Multipart: Boundary not found',
  'Unexpected end of file',
  'Unexpected end of form',
]);

/** Maps errors from body parsers and upload middleware to problems. */
const fromMiddlewareError = (err: HttpishError): ApiError | undefined => {
  if (err.type === 'entity.parse.failed') return new ApiError('bad_request', 'The body is not valid JSON.');
  if (err.type === 'entity.encoding.invalid') return new ApiError('bad_request', err.message);
  if (err.type === 'entity.too.large' || err.code === 'LIMIT_FILE_SIZE') {
    return new ApiError('payload_too_large', 'The request body is larger than the limit.');
  }
  if (
    err.code === 'LIMIT_FILE_COUNT' ||
    err.code === 'LIMIT_UNEXPECTED_FILE' ||
    err.code === 'LIMIT_PART_COUNT'
  ) {
    return new ApiError('validation_failed', `Unexpected upload: ${err.message}`);
  }
  if (err.type === 'charset.unsupported' || err.type === 'encoding.unsupported') {
    return new ApiError('unsupported_media_type', err.message);
  }
  if (err.constructor === Error && MALFORMED_MULTIPART.has(err.message)) {
    return new ApiError('bad_request', `The multipart body is malformed (${err.message}).`);
  }
  // Express decoding a path parameter with bad percent-encoding (`/tags/%E0%A4%A`)
  if (err instanceof URIError) return new ApiError('bad_request', 'The path is not valid percent-encoding.');
  return undefined;
};

/**
 * The last middleware: every error becomes a problem; unknown errors are logged and answered
 * with a 500 that reveals nothing.
 */
export const errorHandler: ErrorRequestHandler = (err: HttpishError, req, res, next) => {
  if (res.headersSent) return next(err);
  if (err instanceof ApiError) return sendProblem(req, res, err);
  const mapped = fromMiddlewareError(err);
  if (mapped) return sendProblem(req, res, mapped);
  req.log?.error({ err }, 'request:failed');
  sendProblem(
    req,
    res,
    new ApiError('internal', 'An unexpected error occurred. Quote the request id when reporting it.'),
  );
};

/**
 * Requests Node's HTTP parser refuses before Express sees them (a request line or headers over
 * its size limit, bytes that are not HTTP): a 400 `bad_request` problem like every other error,
 * instead of Node's bare 431/400 with no body. Listen for the server's `clientError` with it.
 */
export const clientErrorHandler = (err: NodeJS.ErrnoException, socket: Duplex): void => {
  if (!socket.writable || !err.code?.startsWith('HPE_')) {
    if (socket.writable && err.code === 'ERR_HTTP_REQUEST_TIMEOUT') {
      socket.end('HTTP/1.1 408 Request Timeout\r\nConnection: close\r\n\r\n');
    } else socket.destroy();
    return;
  }
  const body: Problem = {
    type: 'urn:voice-eval:problem:bad_request',
    title: TITLES.bad_request,
    status: 400,
    code: 'bad_request',
    request_id: randomUUID(),
    detail:
      err.code === 'HPE_HEADER_OVERFLOW'
        ? 'The request line and headers are larger than the server accepts.'
        : 'The request is not valid HTTP.',
  };
  const text = JSON.stringify(body);
  socket.end(
    `HTTP/1.1 400 Bad Request\r\nContent-Type: application/problem+json; charset=utf-8\r\n` +
      `Content-Length: ${Buffer.byteLength(text)}\r\nX-Request-Id: ${body.request_id}\r\nConnection: close\r\n\r\n${text}`,
  );
};
