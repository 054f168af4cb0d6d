import type { IncomingMessage } from 'node:http';
import type { AppRouter } from '@ts-rest/core';
import { createExpressEndpoints, type TsRestExpressOptions } from '@ts-rest/express';
import { contract } from '@voice-eval/contract';
import cors from 'cors';
import express, { type Express, type RequestHandler } from 'express';
import qs from 'qs';
import type { Deps } from './deps.js';
import { authenticate } from './http/authenticate.js';
import { createConsoleRouter } from './http/console.js';
import { docsRouter } from './http/docs.js';
import { withHeaderChecks } from './http/header-check.js';
import { idempotency } from './http/idempotency.js';
import { jsonBody } from './http/json-body.js';
import { requestLogger } from './http/logging.js';
import { errorHandler, notFoundHandler, requestValidationErrorHandler } from './http/problem.js';
import { authRateLimit, RATE_LIMITED_PATHS } from './http/rate-limit.js';
import { requestId } from './http/request-id.js';
import { resourceRouters } from './http/resource-routers.js';
import { guardRouter, textGuard } from './http/text-guard.js';
import { agentRoutes } from './modules/agents/routes.js';
import { aiProviderRoutes } from './modules/ai-providers/routes.js';
import { apiKeyRoutes, generateKeyRoute } from './modules/api-keys/routes.js';
import { authRoutes } from './modules/auth/routes.js';
import { callImportSchemaRoutes } from './modules/call-import-schemas/routes.js';
import { callImportRoutes } from './modules/call-imports/routes.js';
import { consistencyCheckRoutes } from './modules/consistency-checks/routes.js';
import { dispatchDiagnosticsRoute, evaluationRoutes } from './modules/evaluations/routes.js';
import { evaluatorResultRoutes } from './modules/evaluator-results/routes.js';
import { evaluatorSuiteRoutes } from './modules/evaluator-suites/routes.js';
import { evaluatorRoutes } from './modules/evaluators/routes.js';
import { integrationRoutes } from './modules/integrations/routes.js';
import { invitationPreviewRoute, invitationRoutes } from './modules/invitations/routes.js';
import { labelRoutes } from './modules/labels/routes.js';
import { metricRoutes } from './modules/metrics/routes.js';
import { monitorRoutes } from './modules/monitors/routes.js';
import { personaRoutes } from './modules/personas/routes.js';
import { productionCallRoutes, type RawBodyRequest } from './modules/production-calls/routes.js';
import { reviewQueueRoutes } from './modules/review-queues/routes.js';
import { scenarioRoutes } from './modules/scenarios/routes.js';
import { suiteRunRoutes } from './modules/suite-runs/routes.js';
import { tagRoutes } from './modules/tags/routes.js';
import { voiceBundleRoutes } from './modules/voice-bundles/routes.js';
import { webhookEndpointRoutes } from './modules/webhook-endpoints/routes.js';
import { workspaceRoutes } from './modules/workspaces/routes.js';
import { httpMetrics, opsEndpoints } from './ops/http.js';
import { inContractOrder, type RouterFor } from './routers.js';

/** Headers a browser client may read. */
const EXPOSED_HEADERS = ['X-Request-Id', 'Retry-After', 'Deprecation', 'Link', 'Idempotent-Replayed'];

/**
 * Security headers for API responses, as the OWASP REST Security Cheat Sheet lists them: no
 * framing (CSP `frame-ancestors` and `X-Frame-Options`), no sniffing, HSTS on HTTPS, and `no-store` so no
 * cache keeps tenant data. Headers meant for pages (referrer policy, the legacy XSS filter,
 * cross-origin isolation) are left out of JSON; the docs page sets helmet's defaults for itself.
 * Fixed values, so they are set directly: one step instead of helmet's walk over its options.
 */
const API_SECURITY_HEADERS = [
  ['Content-Security-Policy', "default-src 'none';frame-ancestors 'none'"],
  ['X-Content-Type-Options', 'nosniff'],
  ['X-Frame-Options', 'DENY'],
  ['Cache-Control', 'no-store'],
] as const;

const apiSecurityHeaders: RequestHandler = (req, res, next) => {
  for (const [name, value] of API_SECURITY_HEADERS) res.setHeader(name, value);
  // a host app that mounts this one may still announce Express
  res.removeHeader('X-Powered-By');
  // HSTS is meaningless over plain HTTP (RFC 6797 §8.1) and, sent there, would pin a host name
  // to HTTPS it may not serve; `req.secure` honours `trust proxy` (X-Forwarded-Proto)
  if (req.secure) res.setHeader('Strict-Transport-Security', 'max-age=31536000; includeSubDomains');
  next();
};

/**
 * The voice-eval Express app: every contract route, the docs page, and problem+json for every
 * error. A host app can mount it beside its own routes (`host.use(app)`).
 */
export const createApp = (deps: Deps): Express => {
  const app = express();
  app.disable('x-powered-by');
  // every API response is `no-store`, so there is nothing to revalidate: no ETag (a SHA-1 of each body)
  app.set('etag', false);
  app.set('trust proxy', deps.config.trustProxy);
  // qs turns more than 20 indexed values into an object; allow long id lists (docs/stack-pitfalls.md)
  app.set('query parser', (query: string) => qs.parse(query, { arrayLimit: 1000, depth: 5 }));

  app.use(requestId);
  // health, readiness and metrics: before the request log, auth and rate limits
  app.use(
    opsEndpoints({
      readiness: deps.readiness,
      metrics: deps.metrics,
      metricsEnabled: deps.config.metrics,
      metricsToken: deps.config.metricsToken,
      logger: deps.logger,
    }),
  );
  if (deps.config.metrics) app.use(httpMetrics(deps.metrics));
  app.use(requestLogger(app, deps.logger));
  app.use(apiSecurityHeaders);
  // no configured origin means same-origin only: no CORS headers to compute on any request
  if (deps.config.corsOrigins.length > 0) {
    app.use(cors({ origin: deps.config.corsOrigins, exposedHeaders: EXPOSED_HEADERS, maxAge: 600 }));
  }
  app.use(RATE_LIMITED_PATHS, authRateLimit(deps));
  // platforms' deliveries are verified over their exact bytes: their parsers keep them
  const keepRaw = (req: IncomingMessage, _res: unknown, bytes: Buffer) => {
    (req as RawBodyRequest).rawBody = bytes;
  };
  app.use(
    '/api/v1/ingest',
    jsonBody(deps.config.uploadLimitBytes, keepRaw),
    express.urlencoded({ extended: false, limit: deps.config.jsonBodyLimitBytes, verify: keepRaw }),
  );
  const parseJson = jsonBody(deps.config.jsonBodyLimitBytes);
  // GET and HEAD requests carry no body: they skip the parser's per-request work
  app.use((req, res, next) =>
    req.method === 'GET' || req.method === 'HEAD' ? next() : parseJson(req, res, next),
  );

  const options = {
    logInitialization: false,
    jsonQuery: false,
    responseValidation: deps.config.nodeEnv !== 'production',
    // the text guard before idempotency: its fingerprint must never see unbounded nesting
    globalMiddleware: [authenticate(deps), textGuard, idempotency(deps)],
    requestValidationErrorHandler,
  };
  const api = withHeaderChecks(contract);
  const routers = resourceRouters();
  app.use(routers.dispatch);
  // ts-rest types each middleware by the route it serves; ours serve every route. A route with
  // its own middleware (uploads) runs the text guard again after it, on the parsed form.
  // Express matches in registration order, which ts-rest takes from the handlers' keys: they are
  // registered in the contract's order, so `/call-imports/dispatch-diagnostics` comes before
  // `/call-imports/:id` however an area's handlers were put together.
  const mount = <T extends AppRouter>(area: T, router: RouterFor<T>) =>
    createExpressEndpoints(
      area,
      guardRouter(inContractOrder(area, router)),
      routers.routerFor(area),
      options as unknown as TsRestExpressOptions<T>,
    );
  // a few routes of an area belong to another module, which owns what they read
  mount(api.auth, {
    ...authRoutes(deps),
    generateKey: generateKeyRoute(deps),
    invitationPreview: invitationPreviewRoute(deps),
  });
  mount(api.workspaces, workspaceRoutes(deps));
  mount(api.apiKeys, apiKeyRoutes(deps));
  mount(api.invitations, invitationRoutes(deps));
  mount(api.metrics, { ...metricRoutes(deps), ...labelRoutes(deps) });
  mount(api.voiceBundles, voiceBundleRoutes(deps));
  mount(api.callImportSchemas, callImportSchemaRoutes(deps));
  mount(api.callImports, { ...callImportRoutes(deps), dispatchDiagnostics: dispatchDiagnosticsRoute(deps) });
  mount(api.evaluations, evaluationRoutes(deps));
  mount(api.tags, tagRoutes(deps));
  mount(api.aiProviders, aiProviderRoutes(deps));
  mount(api.integrations, integrationRoutes(deps));
  mount(api.agents, agentRoutes(deps));
  mount(api.scenarios, scenarioRoutes(deps));
  mount(api.personas, personaRoutes(deps));
  mount(api.evaluators, evaluatorRoutes(deps));
  mount(api.evaluatorSuites, evaluatorSuiteRoutes(deps));
  mount(api.suiteRuns, suiteRunRoutes(deps));
  mount(api.evaluatorResults, evaluatorResultRoutes(deps));
  mount(api.webhookEndpoints, webhookEndpointRoutes(deps));
  mount(api.productionCalls, productionCallRoutes(deps));
  mount(api.monitors, monitorRoutes(deps));
  mount(api.reviewQueues, reviewQueueRoutes(deps));
  mount(api.consistencyChecks, consistencyCheckRoutes(deps));

  app.use(docsRouter());
  if (deps.config.console) app.use('/console', createConsoleRouter());
  app.use(notFoundHandler);
  app.use(errorHandler);
  return app;
};
