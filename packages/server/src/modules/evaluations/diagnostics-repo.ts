import type { EvaluationStatus } from '@voice-eval/contract';
import type { Knex } from 'knex';
import { DISPATCH_DEDUPE_CONSTRAINT } from './dispatch-source.js';

/** A workspace with its evaluation round-robin cursor. */
export type WorkspaceRow = { id: string; name: string; slug: string; eval_rr_cursor: number };

/** The organization's workspaces (or one of them) with their evaluation cursor (0: never dispatched). */
export const workspacesOf = (
  db: Knex,
  organizationId: string,
  workspaceId?: string,
): Promise<WorkspaceRow[]> => {
  const query = db('workspaces as w')
    .leftJoin('dispatch_tenants as t', 't.workspace_id', 'w.id')
    .where('w.organization_id', organizationId)
    .orderBy([{ column: 'w.name' }, { column: 'w.id' }])
    .select('w.id', 'w.name', 'w.slug', db.raw('coalesce(t.child_cursor, 0)::int8 as eval_rr_cursor'));
  if (workspaceId) query.where('w.id', workspaceId);
  return query as unknown as Promise<WorkspaceRow[]>;
};

/** A pending or running evaluation with its row counts. */
export type ActiveEvaluationRow = {
  id: string;
  workspace_id: string;
  call_import_id: string;
  status: EvaluationStatus;
  total_rows: number;
  pending_rows: number;
  running_rows: number;
};

/** The organization's pending and running evaluations with their row counts, oldest first. */
export const activeEvaluations = (db: Knex, organizationId: string): Promise<ActiveEvaluationRow[]> =>
  db('evaluations as e')
    .leftJoin('evaluation_rows as r', 'r.evaluation_id', 'e.id')
    .where('e.organization_id', organizationId)
    .whereIn('e.status', ['pending', 'running'])
    .groupBy('e.id')
    .orderBy([{ column: 'e.created_at' }, { column: 'e.id' }])
    .select(
      'e.id',
      'e.workspace_id',
      'e.call_import_id',
      'e.status',
      db.raw('count(r.id)::int as total_rows'),
      db.raw("(count(*) filter (where r.status = 'pending'))::int as pending_rows"),
      db.raw("(count(*) filter (where r.status = 'running'))::int as running_rows"),
    ) as unknown as Promise<ActiveEvaluationRow[]>;

/** Call-import rows of each workspace of the organization waiting for transcription. */
export const pendingImportRows = async (db: Knex, organizationId: string): Promise<Map<string, number>> => {
  const rows: Array<{ workspace_id: string; n: number }> = await db('call_import_rows as r')
    .join('call_imports as ci', 'ci.id', 'r.call_import_id')
    .where('ci.organization_id', organizationId)
    .where('r.diarised_transcript_status', 'pending')
    .groupBy('ci.workspace_id')
    .select('ci.workspace_id', db.raw('count(*)::int as n'));
  return new Map(rows.map((row) => [row.workspace_id, row.n]));
};

/** The global round-robin cursor over organizations (0: never dispatched). */
export const globalCursor = async (db: Knex): Promise<number> => {
  const [row] = await db('dispatch_state').where({ id: 1 }).select('global_cursor');
  return Number(row?.global_cursor ?? 0);
};

/** Whether the dispatch log's (row, attempt) key, the de-duplication guard, is in force in this database. */
export const dedupeActive = async (db: Knex): Promise<boolean> => {
  const result = await db.raw(
    "select exists(select 1 from pg_constraint where conname = ? and contype in ('p', 'u')) as active",
    [DISPATCH_DEDUPE_CONSTRAINT],
  );
  return Boolean(result.rows[0]?.active);
};
