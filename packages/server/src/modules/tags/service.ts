import { DEFAULT_TAG_COLOR, type PageQuery, type Tag, type TagCreateBody } from '@voice-eval/contract';
import { actorLabel, type RequestContext } from '../../context.js';
import { paginate } from '../../db/paginate.js';
import { iso, isUniqueViolation } from '../../db/rows.js';
import type { Deps } from '../../deps.js';
import { ApiError, notFound } from '../../errors.js';
import * as repo from './repo.js';

/** A tag row as the wire's Tag. */
export const toTag = (row: repo.TagRow): Tag => ({
  id: row.id,
  name: row.name,
  color: row.color,
  created_at: iso(row.created_at),
  updated_at: iso(row.updated_at),
});

/** The active workspace's tags, newest first. */
export const listTags = (deps: Deps, ctx: RequestContext, query: PageQuery & { q?: string }) =>
  paginate(repo.tagsQuery(deps.db, ctx, query.q), query, toTag);

/** Creates a tag in the active workspace; the colour is stored lower-case; a taken name is 409. */
export const createTag = async (deps: Deps, ctx: RequestContext, body: TagCreateBody): Promise<Tag> => {
  try {
    const row = await repo.insertTag(deps.db, {
      organization_id: ctx.organizationId,
      workspace_id: ctx.workspaceId,
      name: body.name,
      color: (body.color ?? DEFAULT_TAG_COLOR).toLowerCase(),
      created_by: actorLabel(ctx),
    });
    return toTag(row);
  } catch (error) {
    if (isUniqueViolation(error, 'tags_name_unique')) {
      throw new ApiError('conflict', `A tag named "${body.name}" already exists in this workspace.`);
    }
    throw error;
  }
};

/**
 * Deletes a tag of the active workspace. Call imports lose it too: their tag links reference
 * `tags` with ON DELETE CASCADE, so no import keeps a dangling tag.
 */
export const deleteTag = async (deps: Deps, ctx: RequestContext, id: string): Promise<void> => {
  if (!(await repo.deleteTag(deps.db, ctx, id))) throw notFound('Tag');
};

/**
 * The tags of the active workspace with these ids, in the order given (duplicates collapsed).
 * Unknown ids, and ids of other workspaces, are a 422 naming `path` (for call imports).
 */
export const resolveTags = async (
  deps: Deps,
  ctx: RequestContext,
  ids: readonly string[],
  path = 'body.tag_ids',
): Promise<Tag[]> => {
  const unique = [...new Set(ids)];
  if (unique.length === 0) return [];
  const rows = await repo.findTags(deps.db, ctx, unique);
  const byId = new Map(rows.map((row) => [row.id, row]));
  const missing = unique.filter((id) => !byId.has(id));
  if (missing.length > 0) {
    throw new ApiError('rule_violation', 'Some tags do not exist in this workspace.', {
      errors: missing.map((id) => ({ path, message: `Tag ${id} not found` })),
    });
  }
  return unique.map((id) => toTag(byId.get(id)!));
};
