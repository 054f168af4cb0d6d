import type { ZodType, ZodTypeDef } from 'zod';
import { zodToJsonSchema } from 'zod-to-json-schema';

/** A JSON Schema document as sent in `response_format.json_schema.schema`. */
export type JsonSchema = Record<string, unknown>;

/** The JSON Schema of a zod schema, inlined (no `$ref`) and without the `$schema` marker. */
export function jsonSchemaOf(schema: ZodType<unknown, ZodTypeDef, unknown>): JsonSchema {
  const { $schema: _marker, ...rest } = zodToJsonSchema(schema, { $refStrategy: 'none' }) as JsonSchema;
  return rest;
}

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** Keywords OpenAI's strict mode refuses (zod's `.min()` on strings emits `minLength`). */
const NON_STRICT_KEYWORDS = ['minLength', 'maxLength', 'minProperties', 'maxProperties'];

/**
 * Whether a schema meets OpenAI's strict structured-output rules: every object lists all of its
 * properties as required and forbids others, and no unsupported keyword appears. Other schemas
 * are sent non-strict (still as json_schema) rather than rejected.
 */
export function isStrictCompatible(schema: unknown): boolean {
  if (Array.isArray(schema)) return schema.every(isStrictCompatible);
  if (!isRecord(schema)) return true;
  if (NON_STRICT_KEYWORDS.some((keyword) => typeof schema[keyword] === 'number')) return false;
  if (isRecord(schema.properties)) {
    const keys = Object.keys(schema.properties);
    const required = Array.isArray(schema.required) ? schema.required : [];
    if (schema.additionalProperties !== false || keys.some((key) => !required.includes(key))) return false;
  } else if (schema.type === 'object') {
    return false;
  }
  return Object.values(schema).every(isStrictCompatible);
}
