import type { MetricDefinition } from '@voice-eval/contract';
import type { Knex } from 'knex';

/** A `metric_versions` row as read. */
export type MetricVersionRow = {
  metric_id: string;
  version: number;
  definition: MetricDefinition;
  /** A proposed version, not (yet) promoted. */
  draft: boolean;
  /** The version a draft was drafted from. */
  based_on: number | null;
  created_by: string;
  created_at: Date;
};

/** Stores a version of a top-level metric (an active one unless it says it is a draft). */
export const insertVersion = (
  db: Knex,
  row: Omit<MetricVersionRow, 'draft' | 'based_on'> & Partial<Pick<MetricVersionRow, 'draft' | 'based_on'>>,
) => db('metric_versions').insert({ ...row, definition: JSON.stringify(row.definition) });

/** The number a metric's next version takes: after every version it has, drafts included. */
export const nextVersionNumber = async (db: Knex, metricId: string): Promise<number> => {
  const row = await db('metric_versions').where({ metric_id: metricId }).max({ last: 'version' }).first();
  return Number(row?.last ?? 0) + 1;
};

/** One version of a metric, or undefined. */
export const findVersion = (
  db: Knex,
  metricId: string,
  version: number,
): Promise<MetricVersionRow | undefined> =>
  db('metric_versions').where({ metric_id: metricId, version }).first();

/** A draft version, promoted: it is a draft no longer. */
export const markPromoted = (db: Knex, metricId: string, version: number) =>
  db('metric_versions').where({ metric_id: metricId, version }).update({ draft: false });

/** Moves a top-level metric and its children to version `version`. */
export const setVersion = (db: Knex, metricId: string, version: number) =>
  db('metrics')
    .where((w) => w.where({ id: metricId }).orWhere({ parent_metric_id: metricId }))
    .update({ version });

/** A metric's versions, for `paginate` (which orders them). */
export const versionsQuery = (db: Knex, metricId: string) =>
  db('metric_versions').where({ metric_id: metricId });
