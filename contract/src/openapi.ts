import type { AppRoute } from '@ts-rest/core';
import { generateOpenApi } from '@ts-rest/open-api';
import type { RouteMetadata } from './common.js';
import { contract } from './index.js';

const CREDENTIAL_HEADERS = new Set(['authorization', 'x-api-key', 'x-service-api-key']);

type Operation = Parameters<NonNullable<Parameters<typeof generateOpenApi>[2]>['operationMapper'] & {}>[0];

/** Every non-public operation accepts any one of these. */
const SECURITY: NonNullable<Operation['security']> = [
  { bearerAuth: [] },
  { apiKey: [] },
  { serviceApiKey: [] },
];

const metadataOf = (route: AppRoute): RouteMetadata => (route.metadata ?? {}) as RouteMetadata;

/** Error responses are problem details: relabel their media type. */
const asProblemResponses = (responses: Operation['responses']) => {
  for (const [status, response] of Object.entries(responses ?? {})) {
    const json = response?.content?.['application/json'];
    if (Number(status) >= 400 && json) {
      response.content = { 'application/problem+json': json };
    }
  }
  return responses;
};

const multipartBody = (spec: NonNullable<RouteMetadata['multipart']>): Operation['requestBody'] => {
  const file = { type: 'string', format: 'binary' } as const;
  const fields = Object.entries(spec.fields ?? {}).map(([name, description]) => [
    name,
    { type: 'string', description } as const,
  ]);
  const extraFiles = Object.entries(spec.extraFileFields ?? {}).map(([name, extra]) => [
    name,
    extra.multiple
      ? ({ type: 'array', items: file, description: extra.description } as const)
      : ({ ...file, description: extra.description } as const),
  ]);
  const properties = {
    ...Object.fromEntries(fields),
    [spec.fileField]: spec.multiple ? ({ type: 'array', items: file } as const) : file,
    ...Object.fromEntries(extraFiles),
  };
  return {
    required: true,
    content: { 'multipart/form-data': { schema: { type: 'object', properties } } },
  };
};

const mapOperation = (operation: Operation, route: AppRoute): Operation => {
  const meta = metadataOf(route);
  const mapped: Operation = {
    ...operation,
    parameters: (operation.parameters ?? []).filter(
      (p) => !('in' in p && p.in === 'header' && CREDENTIAL_HEADERS.has(p.name.toLowerCase())),
    ),
    responses: asProblemResponses(operation.responses),
    security: meta.public ? [] : SECURITY,
  };
  if (meta.deprecated) mapped.deprecated = true;
  if (meta.multipart) mapped.requestBody = multipartBody(meta.multipart);
  return mapped;
};

/**
 * The schema generator writes JSON Schema 2019 numeric bounds (`exclusiveMinimum: 0`); OpenAPI 3.0
 * wants `minimum: 0, exclusiveMinimum: true`. Rewrites them in place.
 */
const toOpenApi30Bounds = (node: unknown): void => {
  if (Array.isArray(node)) {
    node.forEach(toOpenApi30Bounds);
    return;
  }
  if (!node || typeof node !== 'object') return;
  const schema = node as Record<string, unknown>;
  for (const [bound, exclusive] of [
    ['minimum', 'exclusiveMinimum'],
    ['maximum', 'exclusiveMaximum'],
  ] as const) {
    if (typeof schema[exclusive] === 'number') {
      schema[bound] = schema[exclusive];
      schema[exclusive] = true;
    }
  }
  Object.values(schema).forEach(toOpenApi30Bounds);
};

/** The OpenAPI 3.0 document of the whole API, generated from the contract. */
export const createOpenApiDocument = () => {
  const document = generateOpenApi(
    contract,
    {
      info: {
        title: 'voice-eval API',
        version: '1.0.0',
        description:
          'Evaluate conversational voice agents: metrics, call imports, transcription, evaluations and ' +
          'root-cause clusters. Errors are RFC 9457 problem details (application/problem+json).',
      },
      servers: [{ url: '/' }],
      components: {
        securitySchemes: {
          bearerAuth: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' },
          apiKey: { type: 'apiKey', in: 'header', name: 'X-API-Key' },
          serviceApiKey: { type: 'apiKey', in: 'header', name: 'X-SERVICE-API-KEY' },
        },
      },
    },
    { setOperationId: 'concatenated-path', operationMapper: mapOperation },
  );
  toOpenApi30Bounds(document.paths);
  return document;
};
