import type { Knex } from 'knex';

/**
 * Problems the judge reported outside the metrics of an evaluation with `allow_discovery`, stored
 * with the row's results: an array of {key, name, metric_type, observation, evidence}, `key` the
 * slug of the name (what `POST /metrics/from-discovered` promotes).
 */
export const up = async (db: Knex): Promise<void> => {
  await db.raw("alter table evaluation_rows add column discovered jsonb not null default '[]'::jsonb");
};

export const down = async (db: Knex): Promise<void> => {
  await db.raw('alter table evaluation_rows drop column discovered');
};
