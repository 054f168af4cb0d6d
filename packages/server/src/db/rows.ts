/** A database timestamp as the wire's ISO 8601 string. */
export const iso = (value: Date | string): string =>
  (value instanceof Date ? value : new Date(value)).toISOString();

/** A nullable database timestamp as a nullable ISO 8601 string. */
export const isoOrNull = (value: Date | string | null | undefined): string | null =>
  value == null ? null : iso(value);

/** Postgres unique-violation, on both pg and PGlite. */
export const isUniqueViolation = (error: unknown, constraint?: string): boolean => {
  const e = error as { code?: string; constraint?: string; message?: string };
  if (e?.code !== '23505') return false;
  return !constraint || e.constraint === constraint || (e.message ?? '').includes(constraint);
};

/** Postgres foreign-key violation (a referenced row is gone), on both pg and PGlite. */
export const isForeignKeyViolation = (error: unknown): boolean =>
  (error as { code?: string })?.code === '23503';
