import { createOpenApiDocument } from '@voice-eval/contract/openapi';
import express, { type Router } from 'express';
import helmet from 'helmet';
import { getAbsoluteFSPath } from 'swagger-ui-dist';

const PAGE = `<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <meta name="viewport" content="width=device-width, initial-scale=1">
  <title>voice-eval API reference</title>
  <link rel="stylesheet" href="docs/assets/swagger-ui.css">
</head>
<body>
  <div id="swagger-ui"></div>
  <script src="docs/assets/swagger-ui-bundle.js"></script>
  <script src="docs/init.js"></script>
</body>
</html>`;

// Relative URLs keep the page working when a host app mounts the server under a prefix.
const INIT = `window.ui = SwaggerUIBundle({ url: 'openapi.json', dom_id: '#swagger-ui', deepLinking: true });`;

/** `GET /openapi.json` and `GET /docs`: the API reference, every asset served from this process. */
export const docsRouter = (): Router => {
  const document = JSON.stringify(createOpenApiDocument());
  const router = express.Router();
  // the page needs a CSP that allows its own scripts and styles (helmet's defaults)
  router.use('/docs', helmet());
  router.get('/openapi.json', (_req, res) => {
    res.type('application/json').send(document);
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
