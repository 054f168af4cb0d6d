import { join } from 'node:path';
import { type CliCommand, EXIT, stringOption } from './command.js';
import { portOf } from './serve.js';

/** Where the demo keeps its data unless `--data-dir` says otherwise: beside serve's, in `demo/`. */
const defaultDataDir = (env: NodeJS.ProcessEnv) => join(env.VOICE_EVAL_DATA_DIR || './.voice-eval', 'demo');

/**
 * `voice-eval demo`: the whole loop with no provider key and no network. The doubles and the SDK
 * are loaded only here, on demand, so `serve` never loads them.
 */
export const demoCommand: CliCommand = {
  name: 'demo',
  summary: 'start a server with a seeded, scored demo against loopback doubles (no key needed)',
  synopsis: 'demo [--port N] [--data-dir DIR]',
  help: `Starts the server as serve does, on an embedded database of its own, and beside it the loopback
doubles of @voice-eval/server/testing: a model and speech provider, and a scripted clinic-booking
agent over text and over a Twilio Media Stream, with seeded failures. It then signs up a demo user
(or logs in again), seeds an organization through the API, runs a text and a voice suite, waits
for them to be scored and clusters their failures, and prints the console links of the runs with
the e-mail and password to log in with. It serves until SIGINT or SIGTERM (Ctrl+C), then stops the
server and the doubles and exits 0. Nothing leaves the machine: no provider key is needed.

DATABASE_URL and VOICE_EVAL_BLOB_STORE are ignored: the demo's data, its secrets and its login
(demo-login.json) stay in its data folder, so a second start reuses them. Remove the folder to
start afresh.

Options:
  --port N           port to listen on; 0 picks a free one (default: $PORT or 3000)
  --data-dir DIR     folder of the demo's database, blobs and login
                     (default: $VOICE_EVAL_DATA_DIR/demo, or ./.voice-eval/demo)`,
  options: { port: { type: 'string' }, 'data-dir': { type: 'string' } },
  positionals: { min: 0, max: 0 },
  run: async (args) => {
    const port = portOf(stringOption(args, 'port'));
    const dataDir = stringOption(args, 'data-dir') ?? defaultDataDir(process.env);
    const { startDemo } = await import('./demo/start-demo.js');
    const demo = await startDemo({
      dataDir,
      env: process.env,
      ...(port !== undefined ? { port } : {}),
      print: (line) => process.stdout.write(`${line}\n`),
    });
    stopOnSignals(demo.close);
    return EXIT.ok;
  },
};

/** Stops the server and the doubles on SIGTERM or SIGINT, then exits 0 (1 if closing fails). */
const stopOnSignals = (close: () => Promise<void>) => {
  let stopping = false;
  const stop = () => {
    if (stopping) return;
    stopping = true;
    process.stdout.write('Stopping the demo...\n');
    close().then(
      () => process.exit(EXIT.ok),
      (err: unknown) => {
        process.stderr.write(`voice-eval demo: stopping failed: ${(err as Error).message}\n`);
        process.exit(EXIT.failed);
      },
    );
  };
  process.on('SIGTERM', stop);
  process.on('SIGINT', stop);
};
