import { z } from 'zod';
import { Timestamp, Uuid } from '../common.js';

/** A label for call imports, kept in the active workspace; names are unique per workspace, case-insensitively. */
export const TagSchema = z.object({
  id: Uuid,
  name: z.string(),
  color: z.string(),
  created_at: Timestamp,
  updated_at: Timestamp,
});
export type Tag = z.infer<typeof TagSchema>;

/** A colour as `#rrggbb` hex. */
export const TagColorSchema = z.string().regex(/^#[0-9a-fA-F]{6}$/, 'Expected a colour as #rrggbb');

/** The colour a tag gets when none is given. */
export const DEFAULT_TAG_COLOR = '#6b7280';

/** Create body; `color` defaults to `DEFAULT_TAG_COLOR` and is stored lower-case. */
export const TagCreateBodySchema = z.object({
  name: z.string().trim().min(1).max(50),
  color: TagColorSchema.optional(),
});
export type TagCreateBody = z.infer<typeof TagCreateBodySchema>;

/** List filter: `q` is a case-insensitive substring of the name. */
export const TagListQuerySchema = z.object({
  q: z.string().max(200).optional(),
});
