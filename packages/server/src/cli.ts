import { parseArgs } from 'node:util';
import { setPlan } from './commands/set-plan.js';
import { ConfigError } from './config.js';
import { ApiError } from './errors.js';
import { createVoiceEvalServer } from './server.js';

const USAGE = `Usage: voice-eval <command> [options]

Commands:
  serve [--port N] [--data-dir DIR]   start the API server (migrates first)
  migrate [--data-dir DIR]            apply pending database migrations and exit
  set-plan ORG_ID free|enterprise      set an organization's plan (enterprise enables ambient audio)
  run-suite SUITE_ID [--wait] [--fail-under RATE] [--baseline last|RUN_ID] [...]
                                      start a suite run on a running server (VOICE_EVAL_URL,
                                      VOICE_EVAL_API_KEY) and gate on it; exit 0 passed, 1 gate
                                      failed, 2 usage error, 3 API error (run-suite --help)

Configuration comes from the environment (DATABASE_URL, VOICE_EVAL_DATA_DIR, PORT, ...);
see the README. Without DATABASE_URL the embedded PGlite database in the data folder is used.`;

const parse = (argv: string[]) =>
  parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      port: { type: 'string' },
      'data-dir': { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
  });

const serve = async (options: { port?: string; dataDir?: string }) => {
  const server = createVoiceEvalServer({
    ...(options.port !== undefined ? { port: Number(options.port) } : {}),
    ...(options.dataDir ? { dataDir: options.dataDir } : {}),
  });
  const { url } = await server.listen();
  const where = server.config.databaseUrl ? 'Postgres' : `embedded PGlite in ${server.config.dataDir}`;
  console.log(`voice-eval listening on ${url} (${where})`);
  console.log(`API reference: ${url}/docs`);
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

const migrateOnly = async (options: { dataDir?: string }) => {
  const server = createVoiceEvalServer(options.dataDir ? { dataDir: options.dataDir } : {});
  await server.migrate();
  await server.close();
  console.log('migrations applied');
};

const setPlanCommand = async (args: string[], options: { dataDir?: string }) => {
  const [organizationId, plan] = args;
  if (!organizationId || !plan) {
    console.error(`set-plan needs an organization id and a plan\n\n${USAGE}`);
    process.exitCode = 2;
    return;
  }
  const server = createVoiceEvalServer({
    ...(options.dataDir ? { dataDir: options.dataDir } : {}),
    workerConcurrency: 0,
  });
  try {
    await server.migrate();
    const result = await setPlan(server.deps.db, organizationId, plan);
    console.log(`${result.name} (${result.organization_id}): ${result.previous_plan} -> ${result.plan}`);
  } catch (err) {
    if (!(err instanceof ApiError)) throw err;
    console.error(err.detail ?? err.message);
    process.exitCode = 1;
  } finally {
    await server.close();
  }
};

/** Runs the `voice-eval` command line. */
export const main = async (argv: string[]): Promise<void> => {
  // run-suite parses its own options; imported on demand so other commands never load the SDK
  if (argv[0] === 'run-suite') return (await import('./commands/run-suite.js')).runSuiteMain(argv.slice(1));
  const { values, positionals } = parse(argv);
  const [command] = positionals;
  const options = { port: values.port, dataDir: values['data-dir'] };
  if (values.help || !command || command === 'help') {
    console.log(USAGE);
    return;
  }
  if (command === 'serve') return serve(options);
  if (command === 'migrate') return migrateOnly(options);
  if (command === 'set-plan') return setPlanCommand(positionals.slice(1), options);
  console.error(`Unknown command: ${command}\n\n${USAGE}`);
  process.exitCode = 2;
};

const isEntry = import.meta.url === `file://${process.argv[1]}` || process.argv[1]?.endsWith('/cli.ts');
if (isEntry) {
  main(process.argv.slice(2)).catch((err: unknown) => {
    console.error(err instanceof ConfigError ? err.message : err);
    process.exit(1);
  });
}
