import type { Knex } from 'knex';
import type { Db } from './knex.js';
import * as m20261121000001 from './migrations/20261121000001_create_identity.js';
import * as m20261121000010 from './migrations/20261121000010_create_provider_usage.js';
import * as m20261121000100 from './migrations/20261121000100_create_metrics.js';
import * as m20261121000101 from './migrations/20261121000101_create_voice_bundles.js';
import * as m20261121000102 from './migrations/20261121000102_create_call_import_schemas.js';
import * as m20261121000103 from './migrations/20261121000103_create_tags.js';
import * as m20261121000200 from './migrations/20261121000200_create_ai_providers_and_integrations.js';
import * as m20261121000201 from './migrations/20261121000201_create_agents_scenarios_personas.js';
import * as m20261121000202 from './migrations/20261121000202_create_evaluators_and_suites.js';
import * as m20261121000300 from './migrations/20261121000300_create_call_imports.js';
import * as m20261121000400 from './migrations/20261121000400_create_evaluations.js';
import * as m20261121000500 from './migrations/20261121000500_create_metric_cluster_reports.js';
import * as m20261125000100 from './migrations/20261125000100_create_suite_runs.js';
import * as m20261125000200 from './migrations/20261125000200_add_voice_simulation.js';

type Migration = { up: (db: Knex) => Promise<void>; down: (db: Knex) => Promise<void> };

/** Every migration, in order. Listed here so the bundle and the source tree run the same set. */
const MIGRATIONS: Record<string, Migration> = {
  '20261121000001_create_identity': m20261121000001,
  '20261121000010_create_provider_usage': m20261121000010,
  '20261121000100_create_metrics': m20261121000100,
  '20261121000101_create_voice_bundles': m20261121000101,
  '20261121000102_create_call_import_schemas': m20261121000102,
  '20261121000103_create_tags': m20261121000103,
  '20261121000200_create_ai_providers_and_integrations': m20261121000200,
  '20261121000201_create_agents_scenarios_personas': m20261121000201,
  '20261121000202_create_evaluators_and_suites': m20261121000202,
  '20261121000300_create_call_imports': m20261121000300,
  '20261121000400_create_evaluations': m20261121000400,
  '20261121000500_create_metric_cluster_reports': m20261121000500,
  '20261125000100_create_suite_runs': m20261125000100,
  '20261125000200_add_voice_simulation': m20261125000200,
};

const source: Knex.MigrationSource<string> = {
  getMigrations: async () => Object.keys(MIGRATIONS),
  getMigrationName: (name) => name,
  getMigration: async (name) => MIGRATIONS[name]!,
};

/** Applies every pending migration; safe to call on each start. */
export const migrate = async (db: Db): Promise<void> => {
  await db.migrate.latest({ migrationSource: source });
};
