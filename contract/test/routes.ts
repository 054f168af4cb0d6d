import { type AppRoute, type AppRouter, isAppRoute } from '@ts-rest/core';
import { contract } from '../src/index.js';

/** Every route of the contract with its dotted key (`metrics.create`). */
export const flattenRoutes = (router: AppRouter = contract, prefix = ''): Array<[string, AppRoute]> =>
  Object.entries(router).flatMap(([key, value]) =>
    isAppRoute(value) ? [[`${prefix}${key}`, value]] : flattenRoutes(value as AppRouter, `${prefix}${key}.`),
  );

/** The 27 operations of the service interface, verbatim. */
export const SPEC_OPERATIONS = `
GET /api/v1/auth/config
POST /api/v1/auth/login
POST /api/v1/auth/signup
POST /api/v1/auth/refresh
GET /api/v1/auth/invitations/preview/{token}
POST /api/v1/auth/generate-key
POST /api/v1/auth/switch-org
POST /api/v1/metrics
POST /api/v1/metrics/drafts
GET /api/v1/metrics/{metric_id}
POST /api/v1/metrics/from-discovered
POST /api/v1/metrics/generate
POST /api/v1/metrics/parse-bulk
POST /api/v1/voicebundles
POST /api/v1/call-import-schemas
GET /api/v1/call-imports
GET /api/v1/call-imports/{call_import_id}/row-ids
POST /api/v1/call-imports/{call_import_id}/transcribe
POST /api/v1/call-imports/{call_import_id}/cancel-diarisation
GET /api/v1/call-imports/dispatch-diagnostics
GET /api/v1/aiproviders/{aiprovider_id}
GET /api/v1/integrations/{integration_id}
GET /api/v1/evaluator-suites/{suite_id}
POST /api/v1/evaluators/bulk
POST /api/v1/personas/{persona_id}/ambient-audio
DELETE /api/v1/personas/{persona_id}/ambient-audio
GET /api/v1/evaluator-results/metric-clusters
`
  .trim()
  .split('\n')
  .map((line) => {
    const [method, path] = line.split(' ') as [string, string];
    return { method, path, contractPath: path.replace(/\{(\w+)\}/g, ':$1') };
  });

/** The spec's public operations: no credentials needed. */
export const PUBLIC_OPERATIONS = new Set([
  'GET /api/v1/auth/config',
  'POST /api/v1/auth/login',
  'POST /api/v1/auth/signup',
  'POST /api/v1/auth/refresh',
  'GET /api/v1/auth/invitations/preview/{token}',
]);
