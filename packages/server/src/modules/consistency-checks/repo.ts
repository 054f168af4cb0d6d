import type { Knex } from 'knex';

type Scope = { organizationId: string; workspaceId: string };

/** A `consistency_checks` row as read; jsonb columns arrive parsed. */
export type CheckRow = {
  id: string;
  organization_id: string;
  workspace_id: string;
  metric_id: string;
  version: number;
  source: Record<string, string>;
  calls: number;
  repeats: number;
  seed: number;
  ai_provider_id: string | null;
  provider: string;
  model: string | null;
  evaluation_ids: string[];
  created_by: string;
  created_at: Date;
};

const checks = (db: Knex, scope: Scope) =>
  db('consistency_checks').where({ organization_id: scope.organizationId, workspace_id: scope.workspaceId });

/** Stores a check. */
export const insertCheck = async (db: Knex, row: Omit<CheckRow, 'id'>): Promise<CheckRow> => {
  const [created] = await db('consistency_checks')
    .insert({
      ...row,
      source: JSON.stringify(row.source),
      evaluation_ids: JSON.stringify(row.evaluation_ids),
    })
    .returning('*');
  return created as CheckRow;
};

/** One of the workspace's checks of a metric, or undefined. */
export const findCheck = (
  db: Knex,
  scope: Scope,
  metricId: string,
  id: string,
): Promise<CheckRow | undefined> => checks(db, scope).andWhere({ metric_id: metricId, id }).first();

/** The workspace's checks of a metric, for `paginate` (which orders them). */
export const checksQuery = (db: Knex, scope: Scope, metricId: string) =>
  checks(db, scope).andWhere({ metric_id: metricId });

/** The workspace's checks of these metric versions, newest first. */
export const checksOfVersions = (
  db: Knex,
  scope: Scope,
  versions: ReadonlyArray<{ metricId: string; version: number }>,
): Promise<CheckRow[]> =>
  versions.length === 0
    ? Promise.resolve([])
    : checks(db, scope)
        .andWhere((w) => {
          for (const { metricId, version } of versions) w.orWhere({ metric_id: metricId, version });
        })
        .orderBy([
          { column: 'created_at', order: 'desc' },
          { column: 'id', order: 'desc' },
        ]);
