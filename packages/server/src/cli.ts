import { createRequire } from 'node:module';
import { type CliCommand, EXIT, helpOf, parseCommandArgs, UsageError } from './commands/command.js';
import { createApiKeyCommand } from './commands/create-api-key.js';
import { demoCommand } from './commands/demo.js';
import { migrateCommand } from './commands/migrate.js';
import { serveCommand } from './commands/serve.js';
import { setPlanCommand } from './commands/set-plan.js';
import { ConfigError } from './config.js';

/** The commands parsed here; run-suite parses its own options (it is loaded on demand, with the SDK). */
const COMMANDS: CliCommand[] = [
  serveCommand,
  demoCommand,
  migrateCommand,
  createApiKeyCommand,
  setPlanCommand,
];

const RUN_SUITE_SUMMARY = 'start a suite run on a running server and gate on it (exit 0/1/2/3)';

const USAGE = `Usage: voice-eval <command> [options]

Commands:
${[
  ...COMMANDS.map((c) => [c.name, c.summary]),
  ['run-suite', RUN_SUITE_SUMMARY],
  ['help', "show this help, or a command's: voice-eval help <command>"],
]
  .map(([name, summary]) => `  ${name!.padEnd(16)}${summary}`)
  .join('\n')}

Options:
  -h, --help      show this help (after a command: the command's help)
  --version       print the version of @voice-eval/server

Configuration comes from the environment (DATABASE_URL, VOICE_EVAL_DATA_DIR, PORT, ...); see the
README. Without DATABASE_URL the embedded PGlite database in the data folder is used.
Exit codes: 0 done, 1 failed, 2 bad command line.`;

/** The package's version (src/ and dist/ both sit one level under the package root). */
const version = (): string => createRequire(import.meta.url)('../package.json').version;

const runSuite = async (argv: string[]) => {
  const { runSuite: run } = await import('./commands/run-suite.js');
  return run(argv, {
    env: process.env,
    stdout: (text) => process.stdout.write(`${text}\n`),
    stderr: (text) => process.stderr.write(`${text}\n`),
  });
};

const help = (topic: string | undefined): number => {
  if (topic === undefined) {
    console.log(USAGE);
    return EXIT.ok;
  }
  const command = COMMANDS.find((c) => c.name === topic);
  if (!command) throw new UsageError(`unknown command '${topic}'`);
  console.log(helpOf(command));
  return EXIT.ok;
};

/**
 * The arguments without a `--` before or right after the command: `pnpm start -- --port 4000`
 * passes one on (`serve -- --port 4000`), where it means "the arguments follow", not "positionals".
 */
const withoutSeparator = (argv: string[]): string[] =>
  argv[0] === '--' ? argv.slice(1) : argv[1] === '--' ? [argv[0]!, ...argv.slice(2)] : argv;

const dispatch = async (argv: string[]): Promise<number> => {
  const [first, ...rest] = withoutSeparator(argv);
  if (first === undefined || first === '--help' || first === '-h') return help(undefined);
  if (first === '--version') {
    if (rest.length > 0) throw new UsageError(`unexpected argument '${rest[0]}'`);
    console.log(version());
    return EXIT.ok;
  }
  if (first.startsWith('-')) throw new UsageError(`unknown option '${first}'`);
  if (first === 'help') {
    if (rest.length > 1) throw new UsageError(`unexpected argument '${rest[1]}'`);
    return rest[0] === 'run-suite' ? runSuite(['--help']) : help(rest[0]);
  }
  if (first === 'run-suite') return runSuite(rest);
  const command = COMMANDS.find((c) => c.name === first);
  if (!command) throw new UsageError(`unknown command '${first}'`);
  const args = parseCommandArgs(command, rest);
  if (args.help) {
    console.log(helpOf(command));
    return EXIT.ok;
  }
  return command.run(args);
};

/**
 * Runs the `voice-eval` command line and sets `process.exitCode`. A bad command line is one line
 * on stderr and exit 2, bad configuration its message and exit 1; neither prints a stack trace.
 * `serve` resolves once the server listens (it then runs until a signal).
 */
export const main = async (argv: string[]): Promise<void> => {
  const command = argv[0] && !argv[0].startsWith('-') ? argv[0] : undefined;
  try {
    process.exitCode = await dispatch(argv);
  } catch (err) {
    if (err instanceof UsageError) {
      const where = command && COMMANDS.some((c) => c.name === command) ? ` ${command}` : '';
      console.error(`voice-eval${where}: ${err.message} (see voice-eval${where} --help)`);
      process.exitCode = EXIT.usage;
    } else {
      // bad configuration and system errors (port in use, database refused) are the user's to fix:
      // their message is enough; anything else is a bug, reported with its stack
      const known = err instanceof ConfigError || typeof (err as { syscall?: unknown }).syscall === 'string';
      console.error(known ? `voice-eval${command ? ` ${command}` : ''}: ${(err as Error).message}` : err);
      // the database pool or the workers may hold the process open
      process.exit(EXIT.failed);
    }
  }
};

const isEntry = import.meta.url === `file://${process.argv[1]}` || process.argv[1]?.endsWith('/cli.ts');
if (isEntry) await main(process.argv.slice(2));
