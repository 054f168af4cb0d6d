import type { PageQuery, Workspace, WorkspaceCreateBody, WorkspaceUpdateBody } from '@voice-eval/contract';
import type { Knex } from 'knex';
import type { RequestContext } from '../../context.js';
import { paginate } from '../../db/paginate.js';
import { iso, isUniqueViolation } from '../../db/rows.js';
import type { Deps } from '../../deps.js';
import { ApiError, notFound } from '../../errors.js';
import * as repo from './repo.js';

export const toWorkspace = (row: repo.WorkspaceRow): Workspace => ({
  id: row.id,
  organization_id: row.organization_id,
  name: row.name,
  slug: row.slug,
  is_default: row.is_default,
  created_at: iso(row.created_at),
  updated_at: iso(row.updated_at),
});

/** Lower-case ASCII letters and digits joined by single dashes. */
export const slugify = (name: string): string =>
  name
    .normalize('NFKD')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 56) || 'workspace';

export const getWorkspace = async (deps: Deps, ctx: RequestContext, id: string): Promise<Workspace> => {
  const row = await repo.findWorkspace(deps.db, ctx.organizationId, id);
  if (!row) throw notFound('Workspace');
  return toWorkspace(row);
};

export const listWorkspaces = (deps: Deps, ctx: RequestContext, query: PageQuery & { q?: string }) =>
  paginate(repo.workspacesQuery(deps.db, ctx.organizationId, query.q), query, toWorkspace);

const freeSlug = async (deps: Deps, organizationId: string, base: string): Promise<string> => {
  const taken = new Set(await repo.slugsLike(deps.db, organizationId, base));
  if (!taken.has(base)) return base;
  for (let n = 2; ; n++) if (!taken.has(`${base}-${n}`)) return `${base}-${n}`;
};

const slugConflict = () => new ApiError('conflict', 'A workspace with this slug already exists.');

export const createWorkspace = async (
  deps: Deps,
  ctx: RequestContext,
  body: WorkspaceCreateBody,
): Promise<Workspace> => {
  const slug = body.slug ?? (await freeSlug(deps, ctx.organizationId, slugify(body.name)));
  try {
    return toWorkspace(
      await repo.insertWorkspace(deps.db, { organization_id: ctx.organizationId, name: body.name, slug }),
    );
  } catch (error) {
    if (isUniqueViolation(error)) throw slugConflict();
    throw error;
  }
};

/** Renames, re-slugs, or makes the workspace the default (moving the flag in one transaction). */
export const updateWorkspace = async (
  deps: Deps,
  ctx: RequestContext,
  id: string,
  body: WorkspaceUpdateBody,
): Promise<Workspace> => {
  try {
    return await deps.db.transaction(async (trx) => {
      if (!(await repo.findWorkspace(trx, ctx.organizationId, id))) throw notFound('Workspace');
      if (body.is_default) await repo.clearDefault(trx, ctx.organizationId);
      const row = await repo.updateWorkspace(trx, ctx.organizationId, id, body);
      if (body.is_default) deps.authCache.evict('');
      return toWorkspace(row!);
    });
  } catch (error) {
    if (isUniqueViolation(error)) throw slugConflict();
    throw error;
  }
};

/** Creates the default workspace of a new organization (inside the caller's transaction). */
export const createDefaultWorkspace = (db: Knex, organizationId: string) =>
  repo.insertWorkspace(db, {
    organization_id: organizationId,
    name: 'Default',
    slug: 'default',
    is_default: true,
  });

/** The id of the organization's default workspace. */
export const defaultWorkspaceId = (db: Knex, organizationId: string): Promise<string> =>
  repo.findDefaultWorkspaceId(db, organizationId);
