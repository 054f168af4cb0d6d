import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import knex, { type Knex } from 'knex';
import ClientPgLite from 'knex-pglite';
import pg from 'pg';

// int8 (count(*), sums) as numbers: our counts stay far below 2^53.
pg.types.setTypeParser(pg.types.builtins.INT8, (v) => Number.parseInt(v, 10));
pg.types.setTypeParser(pg.types.builtins.NUMERIC, (v) => Number.parseFloat(v));

export type Db = Knex;

/**
 * knex-pglite derives the command from knex's method name, so `del()` reports `DEL`, which knex
 * does not recognise: a delete would resolve to the raw result instead of its row count (as on
 * pg). Renaming the method fixes the count.
 */
const PgLiteBase = ClientPgLite as unknown as new (
  config: Knex.Config,
) => Knex.Client & { processResponse(obj: object, runner: unknown): unknown };

class PgLiteClient extends PgLiteBase {
  override processResponse(obj: { method?: string }, runner: unknown): unknown {
    return super.processResponse(obj.method === 'del' ? { ...obj, method: 'delete' } : obj, runner);
  }
}

export type DbOptions =
  /** A Postgres server. */
  | { kind: 'postgres'; url: string; poolMax?: number }
  /** Embedded PGlite in a folder (`dataDir/pgdata`), or an instance created by the caller. */
  | { kind: 'pglite'; dataDir?: string; instance?: PGlite };

/** Creates the Knex instance for Postgres or embedded PGlite; the same SQL runs on both. */
export const createDb = (options: DbOptions): Db => {
  if (options.kind === 'postgres') {
    return knex({
      client: 'pg',
      connection: options.url,
      pool: { min: 0, max: options.poolMax ?? 10 },
    });
  }
  let instance = options.instance;
  if (!instance) {
    if (options.dataDir) mkdirSync(options.dataDir, { recursive: true });
    instance = new PGlite(options.dataDir ? join(options.dataDir, 'pgdata') : undefined);
  }
  const pglite = instance;
  return knex({
    client: PgLiteClient as unknown as typeof knex.Client,
    dialect: 'postgres',
    connection: () => ({ pglite }) as unknown as Knex.StaticConnectionConfig,
  });
};
