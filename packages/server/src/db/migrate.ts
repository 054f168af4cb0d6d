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
import * as m20261125000300 from './migrations/20261125000300_index_active_runs_by_import.js';
import * as m20261125001600 from './migrations/20261125001600_create_webhooks.js';
import * as m20261125002000 from './migrations/20261125002000_add_evaluation_row_discoveries.js';
import * as m20261125002100 from './migrations/20261125002100_index_transcribing_rows_by_import.js';
import * as m20261128000100 from './migrations/20261128000100_add_voice_events.js';
import * as m20261128000200 from './migrations/20261128000200_add_row_voice_measures.js';
import * as m20261129000100 from './migrations/20261129000100_create_production_calls.js';
import * as m20261129000200 from './migrations/20261129000200_create_monitors.js';
import * as m20261129000300 from './migrations/20261129000300_add_integration_polling.js';
import * as m20261129000400 from './migrations/20261129000400_add_integration_api_key.js';
import * as m20261129000500 from './migrations/20261129000500_create_metric_versions.js';
import * as m20261129000600 from './migrations/20261129000600_create_human_labels.js';
import * as m20261129000700 from './migrations/20261129000700_create_review_queues.js';
import * as m20261129000800 from './migrations/20261129000800_add_metric_version_drafts.js';
import * as m20261129000900 from './migrations/20261129000900_create_consistency_checks.js';

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
  '20261125000300_index_active_runs_by_import': m20261125000300,
  '20261125001600_create_webhooks': m20261125001600,
  '20261125002000_add_evaluation_row_discoveries': m20261125002000,
  '20261125002100_index_transcribing_rows_by_import': m20261125002100,
  '20261128000100_add_voice_events': m20261128000100,
  '20261128000200_add_row_voice_measures': m20261128000200,
  '20261129000100_create_production_calls': m20261129000100,
  '20261129000200_create_monitors': m20261129000200,
  '20261129000300_add_integration_polling': m20261129000300,
  '20261129000400_add_integration_api_key': m20261129000400,
  '20261129000500_create_metric_versions': m20261129000500,
  '20261129000600_create_human_labels': m20261129000600,
  '20261129000700_create_review_queues': m20261129000700,
  '20261129000800_add_metric_version_drafts': m20261129000800,
  '20261129000900_create_consistency_checks': m20261129000900,
};

const source: Knex.MigrationSource<string> = {
  getMigrations: async () => Object.keys(MIGRATIONS),
  getMigrationName: (name) => name,
  getMigration: async (name) => MIGRATIONS[name]!,
};

/** The names of every migration this build applies, in order. */
export const MIGRATION_NAMES: readonly string[] = Object.keys(MIGRATIONS);

/**
 * Where the schema stands against this build's migrations: `applied` (all of them), `running`
 * (some pending while another process holds the migration lock) or `pending` (some pending and
 * nobody migrating, e.g. before the first start). One cheap query.
 */
export const migrationState = async (db: Db): Promise<'applied' | 'running' | 'pending'> => {
  try {
    const result = await db.raw(
      `select (select count(*)::int from knex_migrations where name = any(?)) as applied,
              (select coalesce(max(is_locked), 0)::int from knex_migrations_lock) as locked`,
      [MIGRATION_NAMES as string[]],
    );
    const row = result.rows[0] as { applied: number; locked: number };
    if (row.applied === MIGRATION_NAMES.length) return 'applied';
    return row.locked ? 'running' : 'pending';
  } catch (err) {
    // undefined_table: a database no migration has touched yet
    if ((err as { code?: string }).code === '42P01') return 'pending';
    throw err;
  }
};

/** Applies every pending migration; safe to call on each start. */
export const migrate = async (db: Db): Promise<void> => {
  await db.migrate.latest({ migrationSource: source });
};
