import type { Knex } from 'knex';

/** Built-in personas every organization sees (read-only; `is_custom` false). Ids are stable across installs. */
const BUILT_IN_PERSONAS = [
  {
    id: '23a95de7-5914-4d58-a88e-eff252dc8efb',
    name: 'Patient Paula',
    gender: 'female',
    tts_voice_id: 'nova',
    description: 'Polite and patient; answers questions fully and lets the agent finish.',
    allow_interruptions: false,
  },
  {
    id: 'dad10cfe-39fe-486f-adb7-75fac8992d2f',
    name: 'Hurried Hank',
    gender: 'male',
    tts_voice_id: 'onyx',
    description: 'In a rush; gives short answers and cuts long explanations short.',
    response_delay_ms: 200,
    background_noise_source: 'preset',
    background_noise_preset: 'street',
    background_noise_volume: 0.25,
  },
  {
    id: '73bd7f43-02b5-48f1-835e-e67dfa1bb13d',
    name: 'Confused Carol',
    gender: 'female',
    tts_voice_id: 'shimmer',
    description: 'Unsure what she needs; asks the agent to repeat and explain.',
    response_delay_ms: 900,
    allow_interruptions: false,
  },
  {
    id: 'de15da78-ada6-4322-8328-d1047684deab',
    name: 'Frustrated Frank',
    gender: 'male',
    tts_voice_id: 'echo',
    description: 'Upset after a failed earlier attempt; pushes back and asks for a supervisor.',
    background_noise_source: 'preset',
    background_noise_preset: 'home',
    background_noise_volume: 0.15,
  },
  {
    id: '2aad2b82-c140-4cf3-83e9-dd8a087f6ab9',
    name: 'Office Olivia',
    gender: 'neutral',
    tts_voice_id: 'alloy',
    description: 'Calls from a busy open-plan office; clear answers over steady background chatter.',
    background_noise_source: 'preset',
    background_noise_preset: 'office',
    background_noise_volume: 0.35,
  },
];

const timestamps = (t: Knex.CreateTableBuilder) => {
  t.text('created_by').notNullable();
  t.timestamps(true, true);
};

const createAgents = (db: Knex) =>
  db.schema.createTable('agents', (t) => {
    t.uuid('id').primary().defaultTo(db.raw('gen_random_uuid()'));
    t.uuid('organization_id').notNullable().references('organizations.id').onDelete('CASCADE');
    t.uuid('workspace_id').notNullable().references('workspaces.id').onDelete('CASCADE');
    t.text('name').notNullable();
    t.text('description').notNullable().defaultTo('');
    t.text('call_type').notNullable();
    t.text('call_medium').notNullable();
    t.text('phone_number');
    // no foreign key: voice bundles belong to another module; the service checks the id
    t.uuid('voice_bundle_id');
    timestamps(t);
    t.check("call_type in ('inbound', 'outbound')", [], 'agents_call_type_check');
    t.check("call_medium in ('phone', 'web', 'sip')", [], 'agents_call_medium_check');
  });

const createScenarios = (db: Knex) =>
  db.schema.createTable('scenarios', (t) => {
    t.uuid('id').primary().defaultTo(db.raw('gen_random_uuid()'));
    t.uuid('organization_id').notNullable().references('organizations.id').onDelete('CASCADE');
    t.uuid('workspace_id').notNullable().references('workspaces.id').onDelete('CASCADE');
    t.uuid('agent_id').references('agents.id').onDelete('SET NULL');
    t.text('name').notNullable();
    t.text('description').notNullable().defaultTo('');
    t.jsonb('required_info');
    timestamps(t);
    t.index(['agent_id']);
  });

/** Persona defaults: a natural-sounding caller that pauses briefly, may interrupt, and hangs up after 40 turns. */
const createPersonas = (db: Knex) =>
  db.schema.createTable('personas', (t) => {
    t.uuid('id').primary().defaultTo(db.raw('gen_random_uuid()'));
    t.uuid('organization_id').references('organizations.id').onDelete('CASCADE');
    t.uuid('workspace_id').references('workspaces.id').onDelete('CASCADE');
    t.boolean('is_custom').notNullable().defaultTo(true);
    t.text('name').notNullable();
    t.text('gender').notNullable().defaultTo('neutral');
    t.text('tts_provider').notNullable();
    t.text('tts_voice_id').notNullable();
    t.text('tts_voice_name');
    t.text('description').notNullable().defaultTo('');
    t.jsonb('tts_config').notNullable().defaultTo(db.raw("'{}'::jsonb"));
    t.double('llm_temperature').notNullable().defaultTo(0.7);
    t.integer('llm_max_tokens').notNullable().defaultTo(512);
    t.integer('response_delay_ms').notNullable().defaultTo(500);
    t.integer('max_turns').notNullable().defaultTo(40);
    t.boolean('allow_interruptions').notNullable().defaultTo(true);
    t.text('background_noise_source').notNullable().defaultTo('none');
    t.text('background_noise_preset');
    t.double('background_noise_volume').notNullable().defaultTo(0.2);
    t.text('background_noise_storage_key');
    t.uuid('background_noise_asset_id');
    t.text('background_noise_content_type');
    t.text('created_by').notNullable().defaultTo('system');
    t.timestamps(true, true);
    t.index(['organization_id', 'workspace_id']);
    t.check("gender in ('male', 'female', 'neutral')", [], 'personas_gender_check');
    t.check("background_noise_source in ('none', 'preset', 'custom')", [], 'personas_noise_source_check');
    t.check(
      'is_custom = (organization_id is not null and workspace_id is not null)',
      [],
      'personas_owner_check',
    );
    t.check(
      "background_noise_source <> 'custom' or background_noise_storage_key is not null",
      [],
      'personas_custom_noise_check',
    );
  });

/** Agents, scenarios and personas (with the built-in personas); names unique per workspace, case-insensitively. */
export const up = async (db: Knex): Promise<void> => {
  await createAgents(db);
  await createScenarios(db);
  await createPersonas(db);
  for (const table of ['agents', 'scenarios']) {
    await db.raw(
      `create unique index ${table}_name_unique on ${table} (organization_id, workspace_id, lower(name))`,
    );
  }
  await db.raw(
    'create unique index personas_name_unique on personas (organization_id, workspace_id, lower(name)) where is_custom',
  );
  await db('personas').insert(
    BUILT_IN_PERSONAS.map((p) => ({
      ...p,
      is_custom: false,
      tts_provider: 'openai',
      tts_voice_name: p.tts_voice_id[0]!.toUpperCase() + p.tts_voice_id.slice(1),
    })),
  );
};

export const down = async (db: Knex): Promise<void> => {
  for (const table of ['personas', 'scenarios', 'agents']) await db.schema.dropTableIfExists(table);
};
