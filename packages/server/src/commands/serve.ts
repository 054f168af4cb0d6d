import { createVoiceEvalServer } from '../server.js';
import {
  type CliCommand,
  DATA_DIR_HELP,
  DATA_DIR_OPTION,
  EXIT,
  stringOption,
  UsageError,
} from './command.js';

/** The `--port` option's value: a port from 0 to 65535, or undefined when not given. */
export const portOf = (raw: string | undefined) => {
  if (raw === undefined) return undefined;
  const port = Number(raw);
  if (!/^\d+$/.test(raw) || port > 65_535) throw new UsageError(`--port must be 0 to 65535, got '${raw}'`);
  return port;
};

/** Stops the server on SIGTERM or SIGINT: drains requests and workers, then exits 0 (1 if closing fails). */
const stopOnSignals = (server: ReturnType<typeof createVoiceEvalServer>) => {
  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    server.deps.logger.info({ signal }, 'server:stopping');
    server.close().then(
      () => process.exit(0),
      (err: unknown) => {
        server.deps.logger.error({ err }, 'server:stop_failed');
        process.exit(1);
      },
    );
  };
  process.on('SIGTERM', () => stop('SIGTERM'));
  process.on('SIGINT', () => stop('SIGINT'));
};

/** `voice-eval serve`: migrates, starts the workers and listens until SIGTERM or SIGINT. */
export const serveCommand: CliCommand = {
  name: 'serve',
  summary: 'start the API server (migrates first)',
  synopsis: 'serve [--port N] [--data-dir DIR]',
  help: `Applies pending migrations, starts the background workers and serves the API until SIGTERM or
SIGINT (then drains requests and workers and exits 0). Logs are JSON lines on stdout; the first,
"server:listening", carries the URL and the API reference's.

Options:
  --port N           port to listen on; 0 picks a free one (default: $PORT or 3000)
${DATA_DIR_HELP}`,
  options: { port: { type: 'string' }, ...DATA_DIR_OPTION },
  positionals: { min: 0, max: 0 },
  run: async (args) => {
    const port = portOf(stringOption(args, 'port'));
    const dataDir = stringOption(args, 'data-dir');
    const server = createVoiceEvalServer({
      ...(port !== undefined ? { port } : {}),
      ...(dataDir ? { dataDir } : {}),
    });
    const { url } = await server.listen();
    const { config } = server;
    server.deps.logger.info(
      {
        url,
        docs_url: `${url}/docs`,
        database: config.databaseUrl ? 'postgres' : 'pglite',
        ...(config.databaseUrl ? {} : { data_dir: config.dataDir }),
      },
      'server:listening',
    );
    stopOnSignals(server);
    return EXIT.ok;
  },
};
