import { VoiceEvalError } from '../core/errors.js';

/**
 * Fills `:name` segments of a contract path with encoded values. Empty or non-string values are
 * rejected: ts-rest would silently drop the segment and hit another route.
 */
export const buildPath = (path: string, params: Record<string, string> = {}): string =>
  path.replace(/:([A-Za-z0-9_]+)/g, (_, name: string) => {
    const value = params[name];
    if (typeof value !== 'string' || value.length === 0) {
      throw new VoiceEvalError(
        `Expected a non-empty string for path parameter \`${name}\`, got ${JSON.stringify(value)}.`,
      );
    }
    return encodeURIComponent(value);
  });

type QueryValue = string | number | boolean | Date | null | undefined;

const stringify = (value: Exclude<QueryValue, null | undefined>): string =>
  value instanceof Date ? value.toISOString() : String(value);

/**
 * A query string (with its `?`, or empty) from flat values: arrays repeat the key
 * (`tag_id=a&tag_id=b`), booleans become `true`/`false`, undefined and null are left out.
 */
export const buildQuery = (query: object | undefined): string => {
  if (!query) return '';
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(query as Record<string, QueryValue | QueryValue[]>)) {
    for (const item of Array.isArray(value) ? value : [value]) {
      if (item !== undefined && item !== null) search.append(key, stringify(item));
    }
  }
  const text = search.toString();
  return text ? `?${text}` : '';
};
