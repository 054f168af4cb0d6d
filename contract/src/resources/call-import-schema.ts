import { z } from 'zod';
import { Timestamp, Uuid } from '../common.js';

/**
 * Parameter types. `conversation_id` identifies a row (exactly one per schema); `string`, `number`,
 * `boolean`, `datetime` (ISO 8601) and `json` are typed values; `recording_url` is the call audio's
 * URL; `transcript` a source transcript; `phone_number` an E.164-style number; `duration_seconds`
 * the call length in seconds.
 */
export const CALL_IMPORT_PARAMETER_TYPES = [
  'conversation_id',
  'string',
  'number',
  'boolean',
  'datetime',
  'json',
  'recording_url',
  'transcript',
  'phone_number',
  'duration_seconds',
] as const;
export const CallImportParameterTypeSchema = z.enum(CALL_IMPORT_PARAMETER_TYPES);
export type CallImportParameterType = z.infer<typeof CallImportParameterTypeSchema>;

/** A parameter as stored: `ordering` is its 0-based position in the request's `parameters` array. */
export const CallImportSchemaParameterSchema = z.object({
  id: Uuid,
  name: z.string(),
  type: CallImportParameterTypeSchema,
  description: z.string(),
  is_required: z.boolean(),
  ordering: z.number().int().min(0),
});
export type CallImportSchemaParameter = z.infer<typeof CallImportSchemaParameterSchema>;

/**
 * Describes the columns of a call import. Kept in the active workspace; names are unique per
 * workspace, case-insensitively (409). `usage_count` is the number of call imports using it.
 */
export const CallImportSchemaSchema = z.object({
  id: Uuid,
  organization_id: Uuid,
  workspace_id: Uuid,
  name: z.string(),
  description: z.string(),
  parameters: z.array(CallImportSchemaParameterSchema),
  usage_count: z.number().int().min(0),
  created_at: Timestamp,
  updated_at: Timestamp,
});
export type CallImportSchema = z.infer<typeof CallImportSchemaSchema>;

/** A parameter in a create body; `description` defaults to `''`. */
export const CallImportSchemaParameterInputSchema = z.object({
  name: z.string().trim().min(1).max(200),
  type: CallImportParameterTypeSchema,
  description: z.string().max(2_000).optional(),
  is_required: z.boolean().default(false),
});
export type CallImportSchemaParameterInput = z.infer<typeof CallImportSchemaParameterInputSchema>;

/** Parameters: names unique (case-insensitively) and exactly one `conversation_id`, else 422. */
export const CallImportSchemaParametersInputSchema = z
  .array(CallImportSchemaParameterInputSchema)
  .min(1)
  .max(200)
  .superRefine((params, ctx) => {
    const seen = new Set<string>();
    params.forEach((p, i) => {
      const key = p.name.toLowerCase();
      if (seen.has(key)) {
        ctx.addIssue({
          code: z.ZodIssueCode.custom,
          path: [i, 'name'],
          message: `Duplicate parameter name "${p.name}"`,
        });
      }
      seen.add(key);
    });
    const ids = params.filter((p) => p.type === 'conversation_id').length;
    if (ids !== 1) {
      ctx.addIssue({
        code: z.ZodIssueCode.custom,
        message: `Expected exactly one conversation_id parameter, got ${ids}`,
      });
    }
  });

/** Create body: `name` and `parameters` required; the schema is created in the active workspace. */
export const CallImportSchemaCreateBodySchema = z.object({
  name: z.string().trim().min(1).max(200),
  description: z.string().max(10_000).optional(),
  parameters: CallImportSchemaParametersInputSchema,
});
export type CallImportSchemaCreateBody = z.infer<typeof CallImportSchemaCreateBodySchema>;

/** List filter: `q` is a case-insensitive substring of the name. */
export const CallImportSchemaListQuerySchema = z.object({
  q: z.string().max(200).optional(),
});
