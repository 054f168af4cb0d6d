import { z } from 'zod';

/** A comma-separated list, trimmed, empty items left out. */
export const csv = z.string().transform((s) =>
  s
    .split(',')
    .map((v) => v.trim())
    .filter(Boolean),
);

/** A boolean given as text: true/false, 1/0, yes/no. */
export const flag = z
  .string()
  .toLowerCase()
  .pipe(z.enum(['true', 'false', '1', '0', 'yes', 'no']))
  .transform((s) => s === 'true' || s === '1' || s === 'yes');

/** A boolean, or one given as text. */
export const trueOrFalse = z.union([z.boolean(), flag], {
  errorMap: () => ({ message: 'must be true or false' }),
});

/** A positive integer with its default. */
export const int = (fallback: number) => z.coerce.number().int().positive().default(fallback);

/** A service's base URL, without a trailing slash. */
export const apiUrl = (fallback: string) =>
  z
    .string()
    .url()
    .transform((url) => url.replace(/\/+$/, ''))
    .default(fallback);
