import { type AppRoute, type AppRouter, isAppRoute } from '@ts-rest/core';
import * as exported from './index.js';
import { contract, ProblemSchema } from './index.js';
import {
  AREAS,
  errorResponseComponents,
  HEADERS,
  PARAMETERS,
  SECURITY_SCHEMES,
} from './openapi-components.js';
import { createOperation } from './openapi-operations.js';
import { componentNames, createSchemaRegistry } from './openapi-schemas.js';

const routesOf = (router: AppRouter, prefix: string): Array<[string, AppRoute]> =>
  Object.entries(router).flatMap(([key, value]) =>
    isAppRoute(value) ? [[`${prefix}${key}`, value]] : routesOf(value as AppRouter, `${prefix}${key}.`),
  );

/**
 * The OpenAPI 3.1 document of the whole API, generated from the contract: one operation per
 * route, the exported schemas as `components.schemas` (`MetricSchema` -> `Metric`), problem
 * responses and headers as shared components. Deterministic: the same contract gives the same JSON.
 */
export const createOpenApiDocument = () => {
  const registry = createSchemaRegistry(componentNames(exported));
  registry.schema(ProblemSchema);
  const paths: Record<string, Record<string, unknown>> = {};
  for (const [areaKey, router] of Object.entries(contract)) {
    const area = AREAS[areaKey];
    if (!area)
      throw new Error(`No tag for the contract area "${areaKey}": add it to AREAS in openapi-components.ts`);
    for (const [key, route] of routesOf(router as AppRouter, `${areaKey}.`)) {
      const path = route.path.replace(/:(\w+)/g, '{$1}');
      paths[path] ??= {};
      paths[path][route.method.toLowerCase()] = createOperation(key, route, area, registry);
    }
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'voice-eval API',
      version: '1.0.0',
      description:
        'Evaluate conversational voice agents: metrics, call imports, transcription, evaluations, ' +
        'root-cause clusters and simulated calls. Errors are RFC 9457 problem details ' +
        '(application/problem+json). Clients should accept fields and enum values they do not know: ' +
        'the API adds them without a new version.',
      license: { name: 'MIT', identifier: 'MIT' },
    },
    servers: [{ url: '/', description: 'The server that serves this document.' }],
    tags: Object.values(AREAS).map(({ tag, description }) => ({ name: tag, description })),
    paths,
    components: {
      schemas: registry.components(),
      responses: errorResponseComponents(),
      parameters: PARAMETERS,
      headers: HEADERS,
      securitySchemes: SECURITY_SCHEMES,
    },
  };
};
