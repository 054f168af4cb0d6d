import { createConsoleRouter, type VoiceEvalServer } from '@voice-eval/server';
import express, { type ErrorRequestHandler, type Express, type RequestHandler } from 'express';
import { type WebhookReceiverOptions, webhookReceiver } from './webhooks.js';

/**
 * Paths the embedded voice-eval app answers: the API, its docs page and the OpenAPI document,
 * at the same URLs as a standalone server. Everything else stays with the host.
 */
export const VOICE_EVAL_PATHS = /^\/(?:api\/v1(?:\/|$)|docs(?:\/|$)|openapi\.json$)/;

/** Where the host puts voice-eval's console: under its own admin prefix, talking to the API at the root. */
export const CONSOLE_PATH = '/admin/voice-eval';

/** Options of {@link createHostApp}. */
export interface HostAppOptions {
  /** The embedded server, from `createVoiceEvalServer` (migrated by the caller). */
  voiceEval: VoiceEvalServer;
  /** The token the host's own `/internal` routes require in `x-internal-token`. */
  internalToken: string;
  /** Receive voice-eval's webhooks at `POST /webhooks/voice-eval` (left out when absent). */
  webhooks?: WebhookReceiverOptions;
}

/** The host's own authentication for its internal routes (voice-eval keeps its own). */
const requireInternalToken =
  (token: string): RequestHandler =>
  (req, res, next) => {
    if (req.get('x-internal-token') === token) return next();
    res.status(401).json({ error: 'unauthorized' });
  };

/**
 * An existing Express app with routes of its own that embeds voice-eval. Voice-eval sees only
 * its own paths, so it answers their 404s and errors as problem+json while the host keeps its
 * own 404 and error handler, and the host's body parser never touches voice-eval requests.
 */
export function createHostApp({ voiceEval, internalToken, webhooks }: HostAppOptions): Express {
  const host = express();
  host.disable('x-powered-by');

  host.get('/healthz', (_req, res) => {
    res.json({ status: 'ok' });
  });

  const internal = express.Router();
  internal.use(requireInternalToken(internalToken), express.json());
  internal.get('/hello', (_req, res) => {
    res.json({ hello: 'from the host' });
  });
  internal.post('/echo', (req, res) => {
    res.json({ echo: req.body });
  });
  host.use('/internal', internal);
  if (webhooks) host.use('/webhooks/voice-eval', webhookReceiver(webhooks));

  host.use(CONSOLE_PATH, createConsoleRouter({ apiPath: '/' }));
  // Not `host.use(voiceEval.app)`: its catch-all 404 would answer every path of the host.
  host.use((req, res, next) => (VOICE_EVAL_PATHS.test(req.path) ? voiceEval.app(req, res, next) : next()));

  host.use((req, res) => {
    res.status(404).json({ error: 'not_found', path: req.path });
  });
  const onError: ErrorRequestHandler = (error: { status?: number }, _req, res, _next) => {
    const status = error.status && error.status >= 400 && error.status < 500 ? error.status : 500;
    res.status(status).json({ error: status === 500 ? 'internal' : 'bad_request' });
  };
  host.use(onError);
  return host;
}
