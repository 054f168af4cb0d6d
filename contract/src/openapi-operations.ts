import type { AppRoute } from '@ts-rest/core';
import { type ZodTypeAny, z } from 'zod';
import { BaseHeadersSchema, type RouteMetadata } from './common.js';
import { type Area, ERROR_RESPONSES } from './openapi-components.js';
import type { createSchemaRegistry, JsonSchema } from './openapi-schemas.js';

type Registry = ReturnType<typeof createSchemaRegistry>;
type Json = Record<string, unknown>;

/** Any one of these authenticates a non-public operation. */
const SECURITY = [{ bearerAuth: [] }, { apiKey: [] }, { serviceApiKey: [] }];

/** Operations for signed-in users only: an API key gets 403 `interactive_user_required`. */
const INTERACTIVE_ONLY = new Set(['auth.generateKey', 'auth.switchOrg']);

/**
 * Error statuses an operation answers beyond those its shape implies (see `errorStatuses`): the
 * checks of the public routes, the per-IP rate limits, the upstream AI calls, a GET that conflicts.
 */
const EXTRA_ERRORS: Record<string, number[]> = {
  'auth.login': [401, 429],
  'auth.signup': [403, 409, 429],
  'auth.refresh': [401, 429],
  'auth.invitationPreview': [404],
  'invitations.accept': [401, 404, 409, 429],
  'metrics.generate': [429, 502],
  'metrics.parseBulk': [429, 502],
  'suiteRuns.compare': [409],
};

const SUCCESS: Record<string, string> = {
  200: 'OK',
  201: 'Created',
  202: 'Accepted',
  204: 'No content',
  206: 'Partial content',
};

const isSchema = (value: unknown): value is ZodTypeAny => value instanceof z.ZodType;
const shapeOf = (value: unknown): Record<string, ZodTypeAny> =>
  value instanceof z.ZodObject ? (value.shape as Record<string, ZodTypeAny>) : {};

const isPublic = (meta: RouteMetadata) => meta.public === true;
const hasJsonBody = (route: AppRoute) => route.method !== 'GET' && 'body' in route && isSchema(route.body);
const minRoleOf = (route: AppRoute, meta: RouteMetadata) =>
  meta.minRole ?? (route.method === 'GET' ? 'READER' : 'MEMBER');

/**
 * The error statuses the server can answer for an operation: 400/413/415 for a JSON body (bad
 * JSON, size, charset) and 413/415 for an upload; 422 for any input; 401/403/404 when
 * credentials are needed (a workspace of another organization is 404); 409 for writes (conflicts,
 * and an `Idempotency-Key` still in use); 500 always; plus `EXTRA_ERRORS`.
 */
const errorStatuses = (key: string, route: AppRoute, meta: RouteMetadata): number[] => {
  const statuses = new Set<number>([500, ...(EXTRA_ERRORS[key] ?? [])]);
  const add = (...codes: number[]) => {
    for (const code of codes) statuses.add(code);
  };
  if (meta.multipart) add(413, 415, 422);
  if (meta.binary?.ranges) add(416);
  else if (hasJsonBody(route)) add(400, 413, 415, 422);
  if (route.pathParams || route.query) add(422);
  if (!isPublic(meta)) {
    add(401, 403, 404);
    if (route.method !== 'GET') add(409, 422);
  }
  return [...statuses].sort((a, b) => a - b);
};

const describe = (key: string, route: AppRoute, meta: RouteMetadata): string => {
  const what = route.description ?? `${route.summary}.`;
  if (isPublic(meta)) return `${what} Needs no credentials.`;
  const who = INTERACTIVE_ONLY.has(key) ? ', as a signed-in user (an API key is refused)' : '';
  return `${what} Needs the ${minRoleOf(route, meta)} role or higher${who}.`;
};

const parameters = (key: string, route: AppRoute, area: Area, registry: Registry): Json[] => {
  const meta = (route.metadata ?? {}) as RouteMetadata;
  const path = Object.entries(shapeOf(route.pathParams)).map(([name, schema]) => ({
    name,
    in: 'path',
    required: true,
    schema: registry.valueSchema(schema),
  }));
  const query = Object.entries(shapeOf(route.query)).map(([name, schema]) => {
    const { description, ...rest } = registry.valueSchema(schema);
    return {
      name,
      in: 'query',
      ...(description ? { description } : {}),
      required: !schema.isOptional(),
      schema: rest,
    };
  });
  const baseHeaders = new Set(Object.keys(BaseHeadersSchema.shape));
  const ownHeaders = Object.entries(shapeOf(route.headers))
    .filter(([name]) => !baseHeaders.has(name))
    .map(([name, schema]) => ({
      name,
      in: 'header',
      required: !schema.isOptional(),
      schema: registry.valueSchema(schema),
    }));
  const workspaced = !isPublic(meta) && area.scope === 'workspace' && !INTERACTIVE_ONLY.has(key);
  return [
    ...path,
    ...query,
    ...ownHeaders,
    ...(workspaced ? [{ $ref: '#/components/parameters/WorkspaceId' }] : []),
    ...(!isPublic(meta) && route.method === 'POST'
      ? [{ $ref: '#/components/parameters/IdempotencyKey' }]
      : []),
  ];
};

const multipartBody = (spec: NonNullable<RouteMetadata['multipart']>): Json => {
  const file = { type: 'string', format: 'binary' };
  const fields = Object.entries(spec.fields ?? {}).map(([name, description]) => [
    name,
    { type: 'string', description },
  ]);
  const extraFiles = Object.entries(spec.extraFileFields ?? {}).map(([name, extra]) => [
    name,
    extra.multiple
      ? { type: 'array', items: file, description: extra.description }
      : { ...file, description: extra.description },
  ]);
  const properties = {
    ...Object.fromEntries(fields),
    [spec.fileField]: spec.multiple ? { type: 'array', items: file } : file,
    ...Object.fromEntries(extraFiles),
  };
  return { required: true, content: { 'multipart/form-data': { schema: { type: 'object', properties } } } };
};

const requestBody = (route: AppRoute, meta: RouteMetadata, registry: Registry): Json | undefined => {
  if (meta.multipart) return multipartBody(meta.multipart);
  if (!hasJsonBody(route) || !('body' in route) || !isSchema(route.body)) return undefined;
  return {
    required: !route.body.isOptional(),
    content: { 'application/json': { schema: registry.schema(route.body) } },
  };
};

/**
 * A success response of bytes: each media type as a binary string, with the range headers; a
 * JSON form (`application/json` with a `json` schema) is documented with its schema.
 */
const binaryResponse = (
  status: string,
  description: string,
  headers: Json,
  binary: NonNullable<RouteMetadata['binary']>,
  registry: Registry,
): Json => {
  const ranged = binary.ranges
    ? {
        'Accept-Ranges': { description: 'Always `bytes`.', schema: { type: 'string' } },
        ...(status === '206'
          ? {
              'Content-Range': {
                description: 'The part sent: `bytes <first>-<last>/<size>`.',
                schema: { type: 'string' },
              },
            }
          : {}),
      }
    : {};
  const content = Object.fromEntries(
    binary.mediaTypes.map((type) => [
      type,
      {
        schema:
          type === 'application/json' && binary.json
            ? registry.schema(binary.json)
            : { type: 'string', format: 'binary' },
      },
    ]),
  );
  return { description, headers: { ...headers, ...ranged }, content };
};

const successResponses = (key: string, route: AppRoute, meta: RouteMetadata, registry: Registry): Json => {
  const headers: Json = { 'X-Request-Id': { $ref: '#/components/headers/RequestId' } };
  if (!isPublic(meta) && route.method === 'POST') {
    headers['Idempotent-Replayed'] = { $ref: '#/components/headers/IdempotentReplayed' };
  }
  if (meta.deprecated) {
    headers.Deprecation = { $ref: '#/components/headers/Deprecation' };
    headers.Link = { $ref: '#/components/headers/Link' };
  }
  const entries = Object.entries(route.responses)
    .filter(([status]) => Number(status) < 400)
    .map(([status, response]) => {
      const description = SUCCESS[status];
      if (!description) throw new Error(`${key}: no description for status ${status}`);
      if (meta.binary) return [status, binaryResponse(status, description, headers, meta.binary, registry)];
      const schema: JsonSchema | undefined = isSchema(response) ? registry.schema(response) : undefined;
      return [
        status,
        { description, headers, ...(schema ? { content: { 'application/json': { schema } } } : {}) },
      ];
    });
  return Object.fromEntries(entries);
};

/** The OpenAPI operation of one contract route; `key` is its dotted name (`metrics.create`). */
export const createOperation = (key: string, route: AppRoute, area: Area, registry: Registry): Json => {
  const meta = (route.metadata ?? {}) as RouteMetadata;
  const body = requestBody(route, meta, registry);
  const errors = errorStatuses(key, route, meta).map((status) => [
    String(status),
    { $ref: `#/components/responses/${ERROR_RESPONSES[status]!.name}` },
  ]);
  return {
    operationId: key,
    summary: route.summary,
    description: describe(key, route, meta),
    tags: [area.tag],
    ...(meta.deprecated ? { deprecated: true } : {}),
    security: isPublic(meta)
      ? []
      : INTERACTIVE_ONLY.has(key)
        ? [{ bearerAuth: [] }]
        : // a signed URL (its `expires` and `signature`) needs no other credential
          meta.binary?.signedAccess
          ? [...SECURITY, {}]
          : SECURITY,
    parameters: parameters(key, route, area, registry),
    ...(body ? { requestBody: body } : {}),
    responses: { ...successResponses(key, route, meta, registry), ...Object.fromEntries(errors) },
  };
};
