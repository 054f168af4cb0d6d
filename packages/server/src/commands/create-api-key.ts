import { ApiError } from '../errors.js';
import { createKeyForOrganization } from '../modules/api-keys/service.js';
import { createVoiceEvalServer } from '../server.js';
import {
  type CliCommand,
  DATA_DIR_HELP,
  DATA_DIR_OPTION,
  EXIT,
  stringOption,
  UsageError,
} from './command.js';

/**
 * `voice-eval create-api-key --org ID [--name NAME] [--json]`: an organization API key created in
 * the database directly, for bootstrapping an instance or automation without the HTTP flow. The
 * key goes alone on stdout (so `KEY=$(voice-eval create-api-key --org ...)` works), what it
 * belongs to on stderr.
 */
export const createApiKeyCommand: CliCommand = {
  name: 'create-api-key',
  summary: 'create an organization API key in the database (printed once)',
  synopsis: 'create-api-key --org ORG_ID [--name NAME] [--json] [--data-dir DIR]',
  help: `Creates an organization API key directly in the database (DATABASE_URL, else the embedded PGlite
database), without signing in: to bootstrap an instance or give automation a key. The key is
printed once, alone on stdout; only its hash is stored. It acts with the ADMIN role of the
organization, like keys generated through POST /api/v1/auth/generate-key, and is listed and
revoked the same way. Exits 1 for an unknown organization.

Options:
  --org ORG_ID       the organization the key belongs to (required)
  --name NAME        a name to recognise the key by in listings (default: "API key")
  --json             print { id, name, key, prefix, created_at, organization_id } as JSON instead
${DATA_DIR_HELP}`,
  options: {
    org: { type: 'string' },
    name: { type: 'string' },
    json: { type: 'boolean' },
    ...DATA_DIR_OPTION,
  },
  positionals: { min: 0, max: 0 },
  run: async (args) => {
    const organizationId = stringOption(args, 'org');
    if (!organizationId) throw new UsageError('--org ORG_ID is required');
    const name = stringOption(args, 'name');
    const dataDir = stringOption(args, 'data-dir');
    const server = createVoiceEvalServer({ ...(dataDir ? { dataDir } : {}), workerConcurrency: 0 });
    try {
      await server.migrate();
      const { organization_name, ...created } = await createKeyForOrganization(
        server.deps.db,
        organizationId,
        name === undefined ? {} : { name },
      );
      if (args.values.json) {
        console.log(JSON.stringify({ ...created, organization_id: organizationId }, null, 2));
      } else {
        console.error(
          `created API key ${created.prefix}… "${created.name}" (${created.id}) for ${organization_name} ` +
            `(${organizationId}); it is shown only now:`,
        );
        console.log(created.key);
      }
      return EXIT.ok;
    } catch (err) {
      if (!(err instanceof ApiError)) throw err;
      console.error(`voice-eval create-api-key: ${err.detail ?? err.message}`);
      return EXIT.failed;
    } finally {
      await server.close();
    }
  },
};
