import type { Knex } from 'knex';

const jsonbArray = (db: Knex) => db.raw("'[]'::jsonb");

const createEvaluators = (db: Knex) =>
  db.schema.createTable('evaluators', (t) => {
    t.uuid('id').primary().defaultTo(db.raw('gen_random_uuid()'));
    t.text('evaluator_id').notNullable();
    t.uuid('organization_id').notNullable().references('organizations.id').onDelete('CASCADE');
    t.uuid('workspace_id').notNullable().references('workspaces.id').onDelete('CASCADE');
    t.text('name').notNullable();
    t.uuid('agent_id').notNullable().references('agents.id').onDelete('RESTRICT');
    t.uuid('persona_id').notNullable().references('personas.id').onDelete('RESTRICT');
    t.uuid('scenario_id').notNullable().references('scenarios.id').onDelete('RESTRICT');
    t.text('custom_prompt').notNullable().defaultTo('');
    t.jsonb('metric_ids').notNullable().defaultTo(jsonbArray(db));
    t.text('llm_provider');
    t.text('llm_model');
    t.jsonb('llm_config').notNullable().defaultTo(db.raw("'{}'::jsonb"));
    t.jsonb('tags').notNullable().defaultTo(jsonbArray(db));
    t.text('created_by').notNullable();
    t.timestamps(true, true);
    t.unique(['organization_id', 'evaluator_id'], { indexName: 'evaluators_code_unique' });
    t.index(['organization_id', 'workspace_id']);
    t.index(['agent_id']);
    t.index(['persona_id']);
    t.index(['scenario_id']);
  });

const createSuites = async (db: Knex) => {
  await db.schema.createTable('evaluator_suites', (t) => {
    t.uuid('id').primary().defaultTo(db.raw('gen_random_uuid()'));
    t.uuid('organization_id').notNullable().references('organizations.id').onDelete('CASCADE');
    t.uuid('workspace_id').notNullable().references('workspaces.id').onDelete('CASCADE');
    t.text('name').notNullable();
    t.uuid('agent_id').notNullable().references('agents.id').onDelete('RESTRICT');
    t.jsonb('persona_ids').notNullable().defaultTo(jsonbArray(db));
    t.jsonb('scenario_ids').notNullable().defaultTo(jsonbArray(db));
    t.jsonb('metric_ids').notNullable().defaultTo(jsonbArray(db));
    t.text('llm_provider');
    t.text('llm_model');
    t.jsonb('llm_config').notNullable().defaultTo(db.raw("'{}'::jsonb"));
    t.jsonb('tags').notNullable().defaultTo(jsonbArray(db));
    t.integer('default_runs_per_combination').notNullable().defaultTo(1);
    t.integer('round_robin_index').notNullable().defaultTo(0);
    t.boolean('is_active').notNullable().defaultTo(true);
    t.text('created_by').notNullable();
    t.timestamps(true, true);
    t.index(['agent_id']);
    t.check('default_runs_per_combination >= 1', [], 'evaluator_suites_runs_check');
    t.check('round_robin_index >= 0', [], 'evaluator_suites_round_robin_check');
  });
  await db.raw(
    'create unique index evaluator_suites_name_unique on evaluator_suites (organization_id, workspace_id, lower(name))',
  );
};

const createCombinations = (db: Knex) =>
  db.schema.createTable('evaluator_suite_combinations', (t) => {
    t.uuid('id').primary().defaultTo(db.raw('gen_random_uuid()'));
    t.uuid('suite_id').notNullable().references('evaluator_suites.id').onDelete('CASCADE');
    t.uuid('evaluator_id').notNullable().unique().references('evaluators.id').onDelete('RESTRICT');
    t.uuid('persona_id').notNullable();
    t.uuid('scenario_id').notNullable();
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(db.fn.now());
    t.unique(['suite_id', 'persona_id', 'scenario_id']);
  });

/**
 * Evaluators (agent x scenario x persona, scored with metrics) and evaluator suites, whose
 * combinations each own one evaluator. `evaluator_id` is a readable code unique per organization.
 * Agents, scenarios, personas and evaluators cannot be deleted while something references them.
 */
export const up = async (db: Knex): Promise<void> => {
  await createEvaluators(db);
  await createSuites(db);
  await createCombinations(db);
};

export const down = async (db: Knex): Promise<void> => {
  for (const table of ['evaluator_suite_combinations', 'evaluator_suites', 'evaluators']) {
    await db.schema.dropTableIfExists(table);
  }
};
