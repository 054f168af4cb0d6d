import { ERROR_STATUS, type ErrorCode } from '@voice-eval/contract';

export type FieldError = { path: string; message: string };

/**
 * The one error type the server throws on purpose. Its status comes from `ERROR_STATUS`;
 * `http/problem.ts` turns it into an RFC 9457 problem response.
 */
export class ApiError extends Error {
  override name = 'ApiError';
  readonly status: number;
  readonly errors?: FieldError[];
  readonly headers?: Record<string, string>;

  constructor(
    readonly code: ErrorCode,
    readonly detail?: string,
    options: { errors?: FieldError[]; headers?: Record<string, string> } = {},
  ) {
    super(detail ?? code);
    this.status = ERROR_STATUS[code];
    this.errors = options.errors;
    this.headers = options.headers;
  }
}

/** The 404 for an unknown id, or an id of another organization or workspace (never reveal existence). */
export const notFound = (what: string) => new ApiError('not_found', `${what} not found`);
