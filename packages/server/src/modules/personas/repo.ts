import type { Knex } from 'knex';

export type PersonaRow = {
  id: string;
  organization_id: string | null;
  workspace_id: string | null;
  is_custom: boolean;
  name: string;
  gender: string;
  tts_provider: string;
  tts_voice_id: string;
  tts_voice_name: string | null;
  description: string;
  tts_config: Record<string, unknown>;
  llm_temperature: number;
  llm_max_tokens: number;
  response_delay_ms: number;
  max_turns: number;
  allow_interruptions: boolean;
  background_noise_source: string;
  background_noise_preset: string | null;
  background_noise_volume: number;
  background_noise_storage_key: string | null;
  background_noise_asset_id: string | null;
  background_noise_content_type: string | null;
  created_by: string;
  created_at: Date;
  updated_at: Date;
};

/** Columns as written: `tts_config` as JSON text. */
export type PersonaWrite = Partial<Omit<PersonaRow, 'tts_config'>> & { tts_config?: string };

type Scope = { organizationId: string; workspaceId: string };

/** Built-in personas, plus the custom ones of the workspace. */
const visible = (db: Knex, scope: Scope) =>
  db<PersonaRow>('personas').where((w) =>
    w
      .where('is_custom', false)
      .orWhere({ organization_id: scope.organizationId, workspace_id: scope.workspaceId }),
  );

const custom = (db: Knex, scope: Scope) =>
  db<PersonaRow>('personas').where({
    is_custom: true,
    organization_id: scope.organizationId,
    workspace_id: scope.workspaceId,
  });

export const findVisiblePersona = (db: Knex, scope: Scope, id: string) =>
  visible(db, scope).andWhere({ id }).first();

export const findVisiblePersonas = (db: Knex, scope: Scope, ids: readonly string[]) =>
  visible(db, scope).whereIn('id', [...ids]);

/** The workspace's custom persona, locked for the rest of the transaction. */
export const findCustomForUpdate = (db: Knex, scope: Scope, id: string) =>
  custom(db, scope).andWhere({ id }).forUpdate().first();

/** Visible personas matching the filters, unordered: see `paginate`. */
export const personasQuery = (
  db: Knex,
  scope: Scope,
  filters: { q?: string; is_custom?: boolean; gender?: string; tts_provider?: string },
) => {
  const base = visible(db, scope);
  if (filters.q) base.andWhereILike('name', `%${filters.q}%`);
  if (filters.is_custom !== undefined) base.andWhere('is_custom', filters.is_custom);
  if (filters.gender) base.andWhere('gender', filters.gender);
  if (filters.tts_provider) base.andWhere('tts_provider', filters.tts_provider);
  return base;
};

export const insertPersona = async (db: Knex, row: PersonaWrite): Promise<PersonaRow> => {
  const [created] = await db('personas').insert(row).returning('*');
  return created as PersonaRow;
};

export const updatePersona = async (db: Knex, scope: Scope, id: string, patch: PersonaWrite) => {
  const [row] = await custom(db, scope)
    .andWhere({ id })
    .update({ ...patch, updated_at: db.fn.now() } as never)
    .returning('*');
  return row as PersonaRow | undefined;
};

export const deletePersona = (db: Knex, scope: Scope, id: string) =>
  custom(db, scope).andWhere({ id }).delete();

/** True when an evaluator or a suite references the persona. */
export const isPersonaInUse = async (db: Knex, id: string): Promise<boolean> => {
  if (await db('evaluators').where({ persona_id: id }).first('id')) return true;
  const suite = await db('evaluator_suites')
    .whereRaw('persona_ids @> ?::jsonb', [JSON.stringify([id])])
    .first('id');
  return Boolean(suite);
};
