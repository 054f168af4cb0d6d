import { createRequire } from 'node:module';
import express, { type Router } from 'express';
import helmet from 'helmet';
// the path helper alone: the package's main module loads the whole Swagger UI bundle (about 18 MB)
import getAbsoluteFSPath from 'swagger-ui-dist/absolute-path.js';

const PAGE = `<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <meta name="viewport" content="width=device-width, initial-scale=1">
  <title>voice-eval API reference</title>
  <link rel="stylesheet" href="docs/assets/swagger-ui.css">
  <link rel="icon" type="image/png" href="docs/assets/favicon-32x32.png">
</head>
<body>
  <div id="swagger-ui"></div>
  <script src="docs/assets/swagger-ui-bundle.js"></script>
  <script src="docs/init.js"></script>
</body>
</html>`;

// Relative URLs keep the page working when a host app mounts the server under a prefix.
const INIT = `window.ui = SwaggerUIBundle({ url: 'openapi.json', dom_id: '#swagger-ui', deepLinking: true });`;

/** The contract's committed OpenAPI document (its tests keep it equal to the contract). */
const OPENAPI_PATH = createRequire(import.meta.url).resolve('@voice-eval/contract/openapi.json');

/**
 * The page's security headers: helmet's defaults (a CSP that allows its own scripts and styles),
 * except what only holds over HTTPS. Over plain HTTP on a host name that is not localhost, a
 * browser obeying `upgrade-insecure-requests` fetches the page's assets over HTTPS, which the
 * server does not speak, and ignores `Cross-Origin-Opener-Policy` with a console error. HSTS is
 * set for every HTTPS response in app.ts.
 */
const pageHeaders = {
  https: helmet({ strictTransportSecurity: false }),
  http: helmet({
    contentSecurityPolicy: { directives: { upgradeInsecureRequests: null } },
    crossOriginOpenerPolicy: false,
    strictTransportSecurity: false,
  }),
};

/** `GET /openapi.json` and `GET /docs`: the API reference, every asset served from this process. */
export const docsRouter = (): Router => {
  const router = express.Router();
  router.use('/docs', (req, res, next) =>
    (req.secure ? pageHeaders.https : pageHeaders.http)(req, res, next),
  );
  router.get('/openapi.json', (_req, res, next) => {
    res.sendFile(OPENAPI_PATH, { maxAge: '1h' }, (err) => err && next(err));
  });
  router.get('/docs', (req, res) => {
    // the page's relative URLs need the canonical path without a trailing slash
    if (req.path.endsWith('/')) return res.redirect(301, req.originalUrl.replace(/\/+(\?|$)/, '$1'));
    res.type('html').send(PAGE);
  });
  router.get('/docs/init.js', (_req, res) => {
    res.type('application/javascript').send(INIT);
  });
  router.use('/docs/assets', express.static(getAbsoluteFSPath(), { index: false, maxAge: '1h' }));
  return router;
};
