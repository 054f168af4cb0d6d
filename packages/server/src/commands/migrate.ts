import { createVoiceEvalServer } from '../server.js';
import { type CliCommand, DATA_DIR_HELP, DATA_DIR_OPTION, EXIT, stringOption } from './command.js';

/** `voice-eval migrate`: applies pending migrations and exits. */
export const migrateCommand: CliCommand = {
  name: 'migrate',
  summary: 'apply pending database migrations and exit',
  synopsis: 'migrate [--data-dir DIR]',
  help: `Applies pending migrations to the database (DATABASE_URL, else the embedded PGlite database)
and exits. \`serve\` does the same at start; run this to migrate before rolling out instances.

Options:
${DATA_DIR_HELP}`,
  options: { ...DATA_DIR_OPTION },
  positionals: { min: 0, max: 0 },
  run: async (args) => {
    const dataDir = stringOption(args, 'data-dir');
    const server = createVoiceEvalServer({ ...(dataDir ? { dataDir } : {}), workerConcurrency: 0 });
    try {
      await server.migrate();
    } finally {
      await server.close();
    }
    console.log('migrations applied');
    return EXIT.ok;
  },
};
