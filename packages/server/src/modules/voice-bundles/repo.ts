import type { VoiceBundleType } from '@voice-eval/contract';
import type { Knex } from 'knex';

/** A `voice_bundles` row as read; jsonb columns arrive parsed. */
export type VoiceBundleRow = {
  id: string;
  organization_id: string;
  workspace_id: string;
  name: string;
  description: string;
  bundle_type: VoiceBundleType;
  stt_provider: string | null;
  stt_model: string | null;
  stt_credential_id: string | null;
  llm_provider: string | null;
  llm_model: string | null;
  llm_temperature: number | null;
  llm_max_tokens: number | null;
  llm_config: Record<string, unknown>;
  llm_credential_id: string | null;
  tts_provider: string | null;
  tts_model: string | null;
  tts_voice: string | null;
  tts_config: Record<string, unknown>;
  tts_credential_id: string | null;
  s2s_provider: string | null;
  s2s_model: string | null;
  s2s_config: Record<string, unknown>;
  s2s_credential_id: string | null;
  extra_metadata: Record<string, unknown>;
  is_active: boolean;
  created_by: string;
  created_at: Date;
  updated_at: Date;
};

/** Columns a create or update writes. */
export type VoiceBundleWrite = Omit<
  VoiceBundleRow,
  'id' | 'organization_id' | 'workspace_id' | 'created_by' | 'created_at' | 'updated_at'
>;

type Scope = { organizationId: string; workspaceId: string };

const JSON_COLUMNS = ['llm_config', 'tts_config', 's2s_config', 'extra_metadata'] as const;

/** jsonb values go to pg as JSON text (pg would send arrays as Postgres arrays). */
const encode = (values: Partial<VoiceBundleWrite>) => {
  const out: Record<string, unknown> = { ...values };
  for (const column of JSON_COLUMNS) if (column in out) out[column] = JSON.stringify(out[column]);
  return out;
};

/** The workspace's bundles matching the filters, unordered: see `paginate`. */
export const bundlesQuery = (
  db: Knex,
  scope: Scope,
  filters: { bundle_type?: VoiceBundleType; is_active?: boolean; q?: string },
) => {
  const base = db('voice_bundles').where({
    organization_id: scope.organizationId,
    workspace_id: scope.workspaceId,
  });
  if (filters.bundle_type) base.andWhere('bundle_type', filters.bundle_type);
  if (filters.is_active !== undefined) base.andWhere('is_active', filters.is_active);
  if (filters.q) base.andWhereILike('name', `%${filters.q}%`);
  return base;
};

/** A bundle of the workspace. */
export const findBundle = (db: Knex, scope: Scope, id: string) =>
  db<VoiceBundleRow>('voice_bundles')
    .where({ organization_id: scope.organizationId, workspace_id: scope.workspaceId, id })
    .first();

/** Inserts a bundle and returns the stored row. */
export const insertBundle = async (
  db: Knex,
  row: VoiceBundleWrite & Pick<VoiceBundleRow, 'organization_id' | 'workspace_id' | 'created_by' | 'name'>,
) => {
  const [created] = await db('voice_bundles').insert(encode(row)).returning('*');
  return created as VoiceBundleRow;
};

/** Writes a patch and bumps `updated_at`. */
export const updateBundle = async (db: Knex, scope: Scope, id: string, patch: Partial<VoiceBundleWrite>) => {
  const [row] = await db('voice_bundles')
    .where({ organization_id: scope.organizationId, workspace_id: scope.workspaceId, id })
    .update({ ...encode(patch), updated_at: db.fn.now() })
    .returning('*');
  return row as VoiceBundleRow | undefined;
};

/** Deletes a bundle of the workspace; whether it existed. */
export const deleteBundle = async (db: Knex, scope: Scope, id: string): Promise<boolean> => {
  const deleted = await db('voice_bundles')
    .where({ organization_id: scope.organizationId, workspace_id: scope.workspaceId, id })
    .delete();
  return deleted > 0;
};

/** How many agents (the agents module's table, whose `voice_bundle_id` has no foreign key) use the bundle. */
export const agentCount = async (db: Knex, id: string): Promise<number> => {
  const [row] = await db('agents').where({ voice_bundle_id: id }).count({ n: '*' });
  return Number(row?.n ?? 0);
};

/** Locks the bundle row for the rest of the transaction. */
export const findBundleForUpdate = (db: Knex, scope: Scope, id: string) =>
  findBundle(db, scope, id).forUpdate();
