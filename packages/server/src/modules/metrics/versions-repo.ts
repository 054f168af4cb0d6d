import type { MetricDefinition } from '@voice-eval/contract';
import type { Knex } from 'knex';

/** A `metric_versions` row as read. */
export type MetricVersionRow = {
  metric_id: string;
  version: number;
  definition: MetricDefinition;
  created_by: string;
  created_at: Date;
};

/** Stores a version of a top-level metric. */
export const insertVersion = (db: Knex, row: Omit<MetricVersionRow, 'created_at'> & { created_at: Date }) =>
  db('metric_versions').insert({ ...row, definition: JSON.stringify(row.definition) });

/** Moves a top-level metric and its children to version `version`. */
export const setVersion = (db: Knex, metricId: string, version: number) =>
  db('metrics')
    .where((w) => w.where({ id: metricId }).orWhere({ parent_metric_id: metricId }))
    .update({ version });

/** A metric's versions, for `paginate` (which orders them). */
export const versionsQuery = (db: Knex, metricId: string) =>
  db('metric_versions').where({ metric_id: metricId });
