import type { CallImportSchemaParameter } from '@voice-eval/contract';
import { ApiError, type FieldError } from '../../errors.js';

/** Where one source column goes: a schema parameter, or an extra key on rows' `parameters`. */
export type ColumnTarget =
  | { index: number; kind: 'parameter'; parameter: CallImportSchemaParameter }
  | { index: number; kind: 'extra'; key: string };

/** How the columns of a source map onto a schema, and what the import reports about them. */
export type ColumnPlan = {
  targets: ColumnTarget[];
  parameters: readonly CallImportSchemaParameter[];
  /** Source column -> parameter name. */
  parameterMapping: Record<string, string>;
  /** Parameter name -> source column. */
  columnMapping: Record<string, string>;
  /** Extra column -> key on rows' `parameters`. */
  customColumnMapping: Record<string, string>;
  extraColumns: string[];
  skippedColumns: string[];
};

const key = (text: string) => text.trim().toLowerCase();

/**
 * Headers kept (by index) and columns skipped: a column with an empty header is skipped as `#<n>`
 * (its 1-based position); a header repeating an earlier one (case-insensitively) is skipped by name.
 */
const keptHeaders = (headers: readonly string[]) => {
  const kept = new Map<string, { index: number; header: string }>();
  const skipped: string[] = [];
  headers.forEach((raw, index) => {
    const header = raw.trim();
    if (!header) skipped.push(`#${index + 1}`);
    else if (kept.has(key(header))) skipped.push(header);
    else kept.set(key(header), { index, header });
  });
  return { kept, skipped };
};

const invalidMapping = (errors: FieldError[]) =>
  new ApiError('validation_failed', 'The column mapping does not fit the file and the schema.', { errors });

/** Explicit mappings (parameter -> header), checked against the schema and the kept headers. */
const explicitMatches = (
  mapping: Record<string, string>,
  parameters: readonly CallImportSchemaParameter[],
  kept: Map<string, { index: number; header: string }>,
  errors: FieldError[],
) => {
  const matches = new Map<string, { index: number; header: string }>();
  const usedColumns = new Set<number>();
  for (const [name, column] of Object.entries(mapping)) {
    const path = `body.column_mapping.${name}`;
    const parameter = parameters.find((p) => key(p.name) === key(name));
    const source = kept.get(key(column));
    if (!parameter) errors.push({ path, message: `The schema has no parameter "${name}"` });
    else if (!source) errors.push({ path, message: `The file has no column "${column}"` });
    else if (usedColumns.has(source.index))
      errors.push({ path, message: `Column "${column}" is mapped twice` });
    else {
      matches.set(parameter.name, source);
      usedColumns.add(source.index);
    }
  }
  return matches;
};

/** A key for an extra column that does not collide with a parameter name or an earlier key. */
const extraKey = (header: string, taken: Set<string>) => {
  let candidate = header;
  for (let n = 1; taken.has(key(candidate)); n++)
    candidate = n === 1 ? `${header}_extra` : `${header}_extra${n}`;
  taken.add(key(candidate));
  return candidate;
};

/**
 * Resolves the column mapping of a manifest. Parameters left out of `mapping` are matched to a
 * header of the same name (case-insensitively). The conversation_id parameter and every required
 * parameter must end up with a column (422 otherwise); other columns become extra columns.
 */
export const planColumns = (
  headers: readonly string[],
  parameters: readonly CallImportSchemaParameter[],
  mapping: Record<string, string> | undefined,
): ColumnPlan => {
  const { kept, skipped } = keptHeaders(headers);
  const errors: FieldError[] = [];
  const matches = explicitMatches(mapping ?? {}, parameters, kept, errors);
  const used = new Set([...matches.values()].map((m) => m.index));
  for (const parameter of parameters) {
    const source = kept.get(key(parameter.name));
    if (!matches.has(parameter.name) && source && !used.has(source.index)) {
      matches.set(parameter.name, source);
      used.add(source.index);
    }
  }
  for (const parameter of parameters.filter((p) => p.is_required || p.type === 'conversation_id')) {
    if (!matches.has(parameter.name)) {
      errors.push({
        path: 'body.column_mapping',
        message: `Map a column to the required parameter "${parameter.name}"`,
      });
    }
  }
  if (errors.length > 0) throw invalidMapping(errors);
  const targets: ColumnTarget[] = parameters
    .filter((p) => matches.has(p.name))
    .map((parameter) => ({ index: matches.get(parameter.name)!.index, kind: 'parameter', parameter }));
  const taken = new Set(parameters.map((p) => key(p.name)));
  const extras = [...kept.values()].filter((h) => !used.has(h.index));
  const customColumnMapping: Record<string, string> = {};
  for (const extra of extras) {
    const target = extraKey(extra.header, taken);
    customColumnMapping[extra.header] = target;
    targets.push({ index: extra.index, kind: 'extra', key: target });
  }
  return {
    targets,
    parameters,
    parameterMapping: Object.fromEntries([...matches].map(([name, source]) => [source.header, name])),
    columnMapping: Object.fromEntries([...matches].map(([name, source]) => [name, source.header])),
    customColumnMapping,
    extraColumns: extras.map((e) => e.header),
    skippedColumns: skipped,
  };
};
