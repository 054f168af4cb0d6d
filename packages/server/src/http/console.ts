import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import express, { type Request, type RequestHandler, type Router } from 'express';
import { ApiError } from '../errors.js';
import { sendProblem } from './problem.js';

/**
 * Where the built console is: `dist/console` in the package (copied there by the server's build);
 * a server run from its sources in the workspace serves the console package's own build first.
 */
const consoleRoot = (): string | undefined => {
  const pkg = dirname(createRequire(import.meta.url).resolve('@voice-eval/server/package.json'));
  const shipped = join(pkg, 'dist', 'console');
  const workspace = join(pkg, '..', '..', 'console', 'dist');
  const fromSources = import.meta.url.includes('/src/');
  return (fromSources ? [workspace, shipped] : [shipped, workspace]).find((dir) =>
    existsSync(join(dir, 'index.html')),
  );
};

/**
 * The page may run only its own scripts and talk only to its own origin; styles may be inline
 * (the waveform draws in a shadow root with style attributes), and the audio plays from the blob
 * the waveform decodes.
 */
const PAGE_CSP = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data:",
  "media-src 'self' blob:",
  "connect-src 'self'",
  "base-uri 'self'",
  "form-action 'self'",
  "frame-ancestors 'none'",
  "object-src 'none'",
].join(';');

const escapeAttribute = (value: string) =>
  value.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

export interface ConsoleRouterOptions {
  /**
   * The path the API is mounted at on the same origin (where `/api/v1` starts). Default: the path
   * the console is mounted under, less its last segment (`/console` → `/`, `/voice/console` →
   * `/voice/`), which is where the voice-eval app mounts both.
   */
  apiPath?: string;
  /** A folder holding the built console; default: the one this package ships. */
  root?: string;
}

/**
 * The console: its hashed assets (cached for a year, `immutable`) and, for every other path under
 * the mount, its page (`no-cache`) with a `<base href>` at the path the router is mounted at for
 * this request, so the same build works at `/console` or under any prefix a host app picks.
 */
export const createConsoleRouter = (options: ConsoleRouterOptions = {}): Router => {
  const router = express.Router({ strict: true });
  const root = options.root ?? consoleRoot();
  if (root === undefined) {
    router.use((req, res) =>
      sendProblem(
        req,
        res,
        new ApiError('not_found', 'The console is not built: run `pnpm build` in the voice-eval workspace.'),
      ),
    );
    return router;
  }
  // read per request (half a kilobyte): a rebuilt console is served without a restart
  const pageFor = async (req: Request) => {
    const template = await readFile(join(root, 'index.html'), 'utf8');
    const base = `${req.baseUrl}/`;
    const api = options.apiPath ?? req.baseUrl.replace(/[^/]*$/, '');
    const head = `<base href="${escapeAttribute(base)}">\n    <meta name="voice-eval-api" content="${escapeAttribute(api)}">`;
    return template.replace(/<meta charset="utf-8"\s*\/?>/, (charset) => `${charset}\n    ${head}`);
  };

  router.use((_req, res, next) => {
    // the API's `no-store` is not for the console: assets say `immutable`, the page `no-cache`
    res.removeHeader('Cache-Control');
    res.setHeader('Content-Security-Policy', PAGE_CSP);
    res.setHeader('Referrer-Policy', 'same-origin');
    next();
  });
  router.use(
    '/assets',
    express.static(join(root, 'assets'), { immutable: true, maxAge: '365d', index: false }),
    (req, res) => sendProblem(req, res, new ApiError('not_found', `No console asset at ${req.originalUrl}`)),
  );
  const page: RequestHandler = async (req, res, next) => {
    if (req.method !== 'GET' && req.method !== 'HEAD') return next();
    // `/console` → `/console/`: relative URLs resolve against the folder
    if (req.path === '/' && !req.originalUrl.split('?')[0]!.endsWith('/')) {
      const query = req.originalUrl.slice(req.originalUrl.split('?')[0]!.length);
      return res.redirect(308, `${req.baseUrl}/${query}`);
    }
    try {
      const html = await pageFor(req);
      res.setHeader('Cache-Control', 'no-cache');
      res.type('html').send(html);
    } catch (error) {
      next(error);
    }
  };
  router.use(page);
  return router;
};
