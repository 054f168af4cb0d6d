import { z } from 'zod';

/** A UUID string (v4 or v7). */
export const Uuid = z.string().uuid();

/** An ISO 8601 date-time string in UTC or with an offset. */
export const Timestamp = z.string().datetime({ offset: true });

/** A JSON object with arbitrary keys. */
export const JsonObject = z.record(z.string(), z.unknown());

/** A string-to-string map, as used by mappings and extra headers. */
export const StringMap = z.record(z.string(), z.string());

/** Path parameter holding a resource id: non-empty (ts-rest drops empty segments), then a UUID. */
export const IdParam = z.string().min(1).uuid();

// ---------------------------------------------------------------------------
// Errors (RFC 9457 problem details)
// ---------------------------------------------------------------------------

/** Every machine-readable error code the API returns, with its HTTP status. */
export const ERROR_STATUS = {
  bad_request: 400,
  unauthenticated: 401,
  forbidden: 403,
  interactive_user_required: 403,
  feature_not_available: 403,
  not_found: 404,
  conflict: 409,
  in_use: 409,
  payload_too_large: 413,
  unsupported_media_type: 415,
  /** A `Range` the resource cannot satisfy (past its end, or not a byte range this server reads). */
  range_not_satisfiable: 416,
  validation_failed: 422,
  rule_violation: 422,
  idempotency_key_reused: 422,
  ai_provider_not_configured: 422,
  rate_limited: 429,
  internal: 500,
  /** An upstream AI provider failed (error, timeout, unusable reply) on a synchronous request. */
  provider_error: 502,
} as const;

export type ErrorCode = keyof typeof ERROR_STATUS;

/** The error codes, in a stable order. */
export const ERROR_CODES = Object.keys(ERROR_STATUS) as [ErrorCode, ...ErrorCode[]];

/** One field-level problem: `path` is a dotted path into the request (`body.parameters.0.name`). */
export const ProblemFieldErrorSchema = z.object({
  path: z.string(),
  message: z.string(),
});

/** The error body of every non-2xx response (`application/problem+json`). */
export const ProblemSchema = z.object({
  type: z.string(),
  title: z.string(),
  status: z.number().int(),
  detail: z.string().optional(),
  code: z.enum(ERROR_CODES),
  request_id: z.string(),
  errors: z.array(ProblemFieldErrorSchema).optional(),
});
export type Problem = z.infer<typeof ProblemSchema>;

/** Error responses shared by every route, so clients and the OpenAPI document know them. */
export const commonResponses = {
  400: ProblemSchema,
  401: ProblemSchema,
  403: ProblemSchema,
  404: ProblemSchema,
  409: ProblemSchema,
  413: ProblemSchema,
  415: ProblemSchema,
  422: ProblemSchema,
  429: ProblemSchema,
  500: ProblemSchema,
  502: ProblemSchema,
} as const;

// ---------------------------------------------------------------------------
// Query helpers: query values arrive as strings, arrays in several shapes (docs/stack-pitfalls.md)
// ---------------------------------------------------------------------------

/** A boolean query value: only the strings `true` and `false` are accepted. */
export const qBool = z
  .union([z.boolean(), z.enum(['true', 'false'])])
  .transform((v) => v === true || v === 'true');

/** A non-negative integer query value written in decimal digits. */
export const qInt = z
  .union([z.number().int(), z.string().regex(/^\d+$/, 'Expected a whole number')])
  .transform((v) => Number(v));

/**
 * A repeatable query value: `a`, `a&a`, `a[0]&a[1]` and qs's object form all become an array.
 */
export const qArray = <T extends z.ZodTypeAny>(item: T) =>
  z.preprocess(
    (v) => (v == null ? v : Array.isArray(v) ? v : typeof v === 'object' ? Object.values(v as object) : [v]),
    z.array(item),
  );

// ---------------------------------------------------------------------------
// Pagination
// ---------------------------------------------------------------------------

/** `page` (>= 1, default 1) and `page_size` (1..100, default 20). */
export const PageQuerySchema = z.object({
  page: qInt.pipe(z.number().int().min(1)).default('1'),
  page_size: qInt.pipe(z.number().int().min(1).max(100)).default('20'),
});
export type PageQuery = z.infer<typeof PageQuerySchema>;

/** A page of a list: `{ items, total, page, page_size }`, newest first. */
export const pageOf = <T extends z.ZodTypeAny>(item: T) =>
  z.object({
    items: z.array(item),
    total: z.number().int().min(0),
    page: z.number().int().min(1),
    page_size: z.number().int().min(1),
  });

// ---------------------------------------------------------------------------
// Headers (lower-case keys only: Node lower-cases incoming names; docs/stack-pitfalls.md)
// ---------------------------------------------------------------------------

/**
 * Headers every route accepts. Credentials are optional here: public routes take none and the
 * server answers 401 where they are required; the OpenAPI document lists them as security schemes.
 */
export const BaseHeadersSchema = z.object({
  authorization: z.string().optional(),
  'x-api-key': z.string().optional(),
  'x-service-api-key': z.string().optional(),
  'x-workspace-id': z.string().optional(),
  'idempotency-key': z.string().max(255).optional(),
});

/** Marks a route that needs no credentials. */
export const PUBLIC_ROUTE = { public: true } as const;

/** Route metadata: `public` routes need no credentials; `minRole` is the least role allowed. */
export type RouteMetadata = {
  public?: boolean;
  minRole?: Role;
  deprecated?: boolean;
  /**
   * A multipart body: the file field (repeated when `multiple`), further file fields accepted instead
   * of or beside it (`extraFileFields`), and its text fields with descriptions.
   */
  multipart?: {
    fileField: string;
    multiple?: boolean;
    extraFileFields?: Record<string, { multiple?: boolean; description?: string }>;
    fields?: Record<string, string>;
  };
  /**
   * A response of bytes rather than JSON (a recording, an export): the media types it may have;
   * `ranges` when it answers a `Range` request with 206 (or 416); `signedAccess` when a signed URL
   * (its `expires` and `signature` query parameters) stands in for credentials; `json`, the schema
   * of the body when it is sent as `application/json` (an export's JSON form), documented as JSON.
   */
  binary?: { mediaTypes: string[]; ranges?: boolean; signedAccess?: boolean; json?: z.ZodTypeAny };
};

export const ROLES = ['OWNER', 'ADMIN', 'MEMBER', 'READER'] as const;
export const RoleSchema = z.enum(ROLES);
export type Role = z.infer<typeof RoleSchema>;

/** An empty body, for actions that take none. */
export const EmptyBodySchema = z.object({}).strict().optional();
