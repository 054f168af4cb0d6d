import { z } from 'zod';
import { Timestamp, Uuid } from '../common.js';

/** A workspace: a partition of an organization's data. Every organization has exactly one default workspace. */
export const WorkspaceSchema = z.object({
  id: Uuid,
  organization_id: Uuid,
  name: z.string(),
  slug: z.string(),
  is_default: z.boolean(),
  created_at: Timestamp,
  updated_at: Timestamp,
});
export type Workspace = z.infer<typeof WorkspaceSchema>;

const WORKSPACE_NAME = z.string().trim().min(1).max(100);

/** A URL-safe slug: lower-case letters and digits in dash-separated groups, unique within the organization. */
export const WorkspaceSlugSchema = z
  .string()
  .min(1)
  .max(64)
  .regex(/^[a-z0-9]+(?:-[a-z0-9]+)*$/, 'Expected lower-case letters and digits separated by single dashes');

/** Create body; when `slug` is omitted the server derives it from `name` (suffixing `-2`, `-3`, ... on collision). */
export const WorkspaceCreateBodySchema = z.object({
  name: WORKSPACE_NAME,
  slug: WorkspaceSlugSchema.optional(),
});
export type WorkspaceCreateBody = z.infer<typeof WorkspaceCreateBodySchema>;

/**
 * Update body. `is_default: true` makes this workspace the organization's default and clears the
 * flag on the previous one; the default can only be moved, never unset.
 */
export const WorkspaceUpdateBodySchema = z
  .object({
    name: WORKSPACE_NAME,
    slug: WorkspaceSlugSchema,
    is_default: z.literal(true),
  })
  .partial();
export type WorkspaceUpdateBody = z.infer<typeof WorkspaceUpdateBodySchema>;

/** List filter: `q` is a case-insensitive substring of the name or slug. */
export const WorkspaceListQuerySchema = z.object({
  q: z.string().max(200).optional(),
});
