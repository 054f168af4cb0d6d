import { createVoiceEvalServer } from '@voice-eval/server';
import { createHostApp } from './app.js';

/**
 * Starts the host app with voice-eval embedded: `VOICE_EVAL_INTERNAL_TOKEN=... pnpm start`.
 * Voice-eval reads its configuration from the environment as the standalone server does.
 */
const voiceEval = createVoiceEvalServer();
// migrations and background workers (transcription, evaluations); the host does the listening
await voiceEval.start();

const host = createHostApp({
  voiceEval,
  internalToken: process.env.VOICE_EVAL_INTERNAL_TOKEN ?? 'change-me',
});
const port = Number(process.env.PORT ?? 3000);
const server = host.listen(port, () =>
  console.log(`host app on http://localhost:${port} (voice-eval at /api/v1, /docs)`),
);

const shutdown = () => {
  server.close(() => {
    voiceEval.close().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  });
  server.closeIdleConnections();
};
process.once('SIGTERM', shutdown);
process.once('SIGINT', shutdown);
