import { Uuid } from '@voice-eval/contract';
import { z } from 'zod';
import { ApiError } from '../../errors.js';

/** A text field holding JSON, parsed then checked with `schema`. */
const jsonField = <T extends z.ZodTypeAny>(schema: T, what: string) =>
  z
    .string()
    .transform((text, ctx) => {
      try {
        return JSON.parse(text) as unknown;
      } catch {
        ctx.addIssue({ code: 'custom', message: `Expected ${what} as JSON` });
        return z.NEVER;
      }
    })
    .pipe(schema);

/** `tag_ids` as a JSON array, a comma-separated list, or the field repeated once per id. */
const TagIds = z.preprocess((value) => {
  const parts = Array.isArray(value) ? value : [value];
  return parts.flatMap((part) => {
    const text = String(part).trim();
    if (text.startsWith('[')) {
      try {
        return JSON.parse(text) as unknown[];
      } catch {
        return [text];
      }
    }
    return text
      .split(',')
      .map((id) => id.trim())
      .filter(Boolean);
  });
}, z.array(Uuid).max(50));

/**
 * The text fields of POST /call-imports. Unknown fields are refused (422) so a misspelt field is
 * not silently ignored. `none` is not a dataset name: the list filter uses it for "no dataset".
 */
export const CreateFieldsSchema = z
  .object({
    schema_id: Uuid,
    column_mapping: jsonField(
      z.record(z.string().min(1).max(200), z.string().min(1).max(500)),
      'an object of parameter name -> column header',
    ).optional(),
    dataset: z
      .string()
      .trim()
      .min(1)
      .max(200)
      .refine((name) => name.toLowerCase() !== 'none', 'The dataset name "none" is reserved')
      .optional(),
    tag_ids: TagIds.optional(),
    sheet_name: z.string().min(1).max(200).optional(),
    provider: z.string().trim().min(1).max(100).default('upload'),
  })
  .strict();
export type CreateFields = z.infer<typeof CreateFieldsSchema>;

/** Parses the multipart text fields; every problem is a 422 naming `body.<field>`. */
export const parseCreateFields = (body: unknown): CreateFields => {
  const fields = Object.fromEntries(
    Object.entries((body ?? {}) as Record<string, unknown>).filter(([, value]) => value !== ''),
  );
  const parsed = CreateFieldsSchema.safeParse(fields);
  if (parsed.success) return parsed.data;
  throw new ApiError('validation_failed', 'The form fields are not valid.', {
    errors: parsed.error.issues.map((issue) => ({
      path: ['body', ...issue.path].join('.'),
      message: issue.message,
    })),
  });
};
