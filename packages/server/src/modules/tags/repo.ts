import type { Knex } from 'knex';

/** A `tags` row. */
export type TagRow = {
  id: string;
  organization_id: string;
  workspace_id: string;
  name: string;
  color: string;
  created_by: string;
  created_at: Date;
  updated_at: Date;
};

type Scope = { organizationId: string; workspaceId: string };

/** The workspace's tags matching `q` (a case-insensitive substring of the name), unordered. */
export const tagsQuery = (db: Knex, scope: Scope, q: string | undefined) => {
  const base = db('tags').where({ organization_id: scope.organizationId, workspace_id: scope.workspaceId });
  if (q) base.andWhereILike('name', `%${q}%`);
  return base;
};

/** Inserts a tag and returns the stored row. */
export const insertTag = async (db: Knex, row: Omit<TagRow, 'id' | 'created_at' | 'updated_at'>) => {
  const [created] = await db<TagRow>('tags').insert(row).returning('*');
  return created!;
};

/** Deletes a tag of the workspace; whether it existed. */
export const deleteTag = async (db: Knex, scope: Scope, id: string): Promise<boolean> => {
  const deleted = await db('tags')
    .where({ organization_id: scope.organizationId, workspace_id: scope.workspaceId, id })
    .delete();
  return deleted > 0;
};

/** The tags of the workspace among these ids. */
export const findTags = (db: Knex, scope: Scope, ids: readonly string[]) =>
  db<TagRow>('tags')
    .where({ organization_id: scope.organizationId, workspace_id: scope.workspaceId })
    .whereIn('id', ids);
