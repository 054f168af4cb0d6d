import { type ZodTypeAny, type ZodTypeDef, z } from 'zod';
import { ignoreOverride, type JsonSchema7Type, zodToJsonSchema } from 'zod-to-json-schema';
import { qBool } from './common.js';

/** A JSON Schema (2020-12 subset, as OpenAPI 3.1 uses it). */
export type JsonSchema = { [key: string]: unknown };

const COMPONENTS = '#/components/schemas/';

/** Code-point order: unlike `localeCompare`, the same on every machine. */
const byName = ([a]: [string, unknown], [b]: [string, unknown]) => (a < b ? -1 : a > b ? 1 : 0);

/**
 * Names the exported zod schemas of the contract: `MetricSchema` becomes the component `Metric`.
 * A schema exported under two names (an alias) takes the first name in alphabetical order.
 */
export const componentNames = (exports: Record<string, unknown>): Map<ZodTypeDef, string> => {
  const names = new Map<ZodTypeDef, string>();
  for (const [key, value] of Object.entries(exports).sort(byName)) {
    if (!(value instanceof z.ZodType) || !key.endsWith('Schema') || key.length === 'Schema'.length) continue;
    if (!names.has(value._def)) names.set(value._def, key.slice(0, -'Schema'.length));
  }
  return names;
};

/**
 * Query values arrive as strings and the helpers in `common.ts` parse them (`'20'` -> 20): the
 * document describes the parsed value, so a string default of a number or boolean is converted.
 */
const parsedDefault = (schema: JsonSchema): JsonSchema => {
  const value = schema.default;
  if (typeof value !== 'string') return schema;
  if (schema.type === 'integer' || schema.type === 'number') return { ...schema, default: Number(value) };
  if (schema.type === 'boolean') return { ...schema, default: value === 'true' };
  return schema;
};

/** Optionality belongs to the parameter or body (`required`), not to its schema. */
const required = (schema: ZodTypeAny): ZodTypeAny =>
  schema instanceof z.ZodOptional ? required(schema.unwrap()) : schema;

/** Drops the `$schema` key zod-to-json-schema puts on every root: the document is the schema's home. */
const withoutDialect = (schema: JsonSchema): JsonSchema => {
  const { $schema: _dialect, ...rest } = schema;
  return rest;
};

/**
 * Converts the contract's zod schemas to the document's JSON Schemas. A schema the contract
 * exports becomes a `$ref` to `components.schemas`, filled with the schemas referenced so far;
 * every other schema is inlined. Nullable values are `anyOf [..., { type: 'null' }]` (OpenAPI 3.1).
 * Objects do not forbid other properties: a newer server may add fields.
 */
export const createSchemaRegistry = (names: Map<ZodTypeDef, string>) => {
  const components = new Map<string, JsonSchema>();
  const queued = new Set<string>();
  const pending: Array<[string, ZodTypeDef]> = [];

  const convert = (schema: ZodTypeAny, componentRoot?: ZodTypeDef): JsonSchema =>
    withoutDialect(
      zodToJsonSchema(schema, {
        target: 'jsonSchema7',
        $refStrategy: 'none',
        effectStrategy: 'input',
        // a pipe validates its input and documents its output: `qInt.pipe(z.number().int().min(1))`
        pipeStrategy: 'output',
        removeAdditionalStrategy: 'strict',
        allowedAdditionalProperties: undefined,
        override: (def, refs) => {
          if (def === qBool._def) return { type: 'boolean' };
          const name = names.get(def);
          if (!name || (def === componentRoot && refs.currentPath.length === 1)) return ignoreOverride;
          if (!queued.has(name)) {
            queued.add(name);
            pending.push([name, def]);
          }
          return { $ref: `${COMPONENTS}${name}` } as JsonSchema7Type;
        },
      }) as JsonSchema,
    );

  return {
    /** The schema of a body or a response: a `$ref` when the contract names it. */
    schema: (schema: ZodTypeAny): JsonSchema => convert(required(schema)),
    /** The schema of one query or path value, with string defaults converted. */
    valueSchema: (schema: ZodTypeAny): JsonSchema => parsedDefault(convert(required(schema))),
    /** Every component referenced so far (and what they reference), sorted by name. */
    components: (): Record<string, JsonSchema> => {
      while (pending.length > 0) {
        const [name, def] = pending.shift()!;
        // zod-to-json-schema reads nothing but `_def` of the schema it is given
        components.set(name, convert({ _def: def } as ZodTypeAny, def));
      }
      return Object.fromEntries([...components].sort(byName));
    },
  };
};
