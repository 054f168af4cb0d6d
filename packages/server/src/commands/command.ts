import { type ParseArgsConfig, parseArgs } from 'node:util';

/** Exit codes shared by every `voice-eval` command (run-suite adds its own, see RUN_SUITE_EXIT). */
export const EXIT = {
  ok: 0,
  /** The command ran and failed: unknown organization, bad configuration, database error. */
  failed: 1,
  /** Bad command line: unknown command or option, missing or malformed argument. */
  usage: 2,
} as const;

/** A bad command line; the CLI prints its message on one line and exits with {@link EXIT.usage}. */
export class UsageError extends Error {
  override name = 'UsageError';
}

type Options = NonNullable<ParseArgsConfig['options']>;

/** What a command receives: its parsed options and positional arguments. */
export type CommandArgs = {
  values: Record<string, string | boolean | undefined>;
  positionals: string[];
};

/** One `voice-eval` command: its help and how it runs. */
export interface CliCommand {
  name: string;
  /** One line for `voice-eval help`. */
  summary: string;
  /** The synopsis after `voice-eval`, e.g. `migrate [--data-dir DIR]`. */
  synopsis: string;
  /** The rest of `voice-eval <command> --help`: what it does and each option. */
  help: string;
  options: Options;
  /** How many positional arguments it takes. */
  positionals: { min: number; max: number };
  /** Runs the command; resolves with the exit code (serve resolves once it listens). */
  run(args: CommandArgs): Promise<number>;
}

/** The `--data-dir` option of every command that opens the database. */
export const DATA_DIR_OPTION = { 'data-dir': { type: 'string' } } as const satisfies Options;

/** The `--data-dir` line of a command's help. */
export const DATA_DIR_HELP =
  '  --data-dir DIR     folder of the embedded PGlite database (default: $VOICE_EVAL_DATA_DIR or ./.voice-eval);\n' +
  '                     ignored when DATABASE_URL is set';

/** The full help text of a command. */
export const helpOf = (command: CliCommand) =>
  `Usage: voice-eval ${command.synopsis}\n\n${command.help}\n  -h, --help         show this help`;

/** node's parseArgs messages go on with advice about '--'; the first sentence is the useful part. */
const firstSentence = (message: string) => message.split(/\.\s/)[0]!.replace(/\.$/, '');

/**
 * Parses a command's arguments (after its name). Throws {@link UsageError} for an unknown option,
 * a missing option value or the wrong number of positional arguments; `help` is true for `--help`.
 */
export const parseCommandArgs = (command: CliCommand, argv: string[]): CommandArgs & { help: boolean } => {
  let parsed: ReturnType<typeof parseArgs>;
  try {
    parsed = parseArgs({
      args: argv,
      allowPositionals: true,
      strict: true,
      options: { ...command.options, help: { type: 'boolean', short: 'h' } },
    });
  } catch (err) {
    const code = (err as { code?: unknown }).code;
    if (typeof code === 'string' && code.startsWith('ERR_PARSE_ARGS_')) {
      throw new UsageError(firstSentence((err as Error).message));
    }
    throw err;
  }
  const { help, ...values } = parsed.values as Record<string, string | boolean | undefined>;
  if (help) return { values, positionals: parsed.positionals, help: true };
  const { min, max } = command.positionals;
  if (parsed.positionals.length > max) {
    throw new UsageError(`unexpected argument '${parsed.positionals[max]}'`);
  }
  if (parsed.positionals.length < min) throw new UsageError(`missing arguments: ${command.synopsis}`);
  return { values, positionals: parsed.positionals, help: false };
};

/** A string option's value, or undefined. */
export const stringOption = (args: CommandArgs, name: string): string | undefined => {
  const value = args.values[name];
  return typeof value === 'string' ? value : undefined;
};
