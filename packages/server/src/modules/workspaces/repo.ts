import type { Knex } from 'knex';

export type WorkspaceRow = {
  id: string;
  organization_id: string;
  name: string;
  slug: string;
  is_default: boolean;
  created_at: Date;
  updated_at: Date;
};

export const findWorkspace = (db: Knex, organizationId: string, id: string) =>
  db<WorkspaceRow>('workspaces').where({ organization_id: organizationId, id }).first();

/** The organization's workspaces matching `q` (name or slug), unordered: see `paginate`. */
export const workspacesQuery = (db: Knex, organizationId: string, q: string | undefined) => {
  const base = db('workspaces').where({ organization_id: organizationId });
  if (q) base.andWhere((w) => w.whereILike('name', `%${q}%`).orWhereILike('slug', `%${q}%`));
  return base;
};

export const slugsLike = (db: Knex, organizationId: string, base: string) =>
  db('workspaces')
    .where({ organization_id: organizationId })
    .andWhereLike('slug', `${base}%`)
    .pluck<string[]>('slug');

export const insertWorkspace = async (
  db: Knex,
  row: Pick<WorkspaceRow, 'organization_id' | 'name' | 'slug'> & { is_default?: boolean },
) => {
  const [created] = await db<WorkspaceRow>('workspaces').insert(row).returning('*');
  return created!;
};

export const updateWorkspace = async (
  db: Knex,
  organizationId: string,
  id: string,
  patch: Partial<WorkspaceRow>,
) => {
  const [row] = await db<WorkspaceRow>('workspaces')
    .where({ organization_id: organizationId, id })
    .update({ ...patch, updated_at: db.fn.now() as unknown as Date })
    .returning('*');
  return row;
};

export const clearDefault = (db: Knex, organizationId: string) =>
  db('workspaces').where({ organization_id: organizationId, is_default: true }).update({ is_default: false });

/** The id of the organization's default workspace (every organization has one). */
export const findDefaultWorkspaceId = async (db: Knex, organizationId: string): Promise<string> =>
  (
    await db('workspaces')
      .where({ organization_id: organizationId, is_default: true })
      .first<{ id: string }>('id')
  ).id;
