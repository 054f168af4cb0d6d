import type { Knex } from 'knex';

/**
 * One kind of dispatched work (evaluation rows, simulated conversations), registered on the
 * dispatcher. Every source shares the same limits and round-robin rings: the dispatcher counts the
 * in-flight items of all of them and plans over the claiming source's jobs.
 */
export type DispatchSource<Row> = {
  /** Unique; equals the worker task name, e.g. 'evaluation_row.score'. */
  name: string;
  /** SQL returning (organization_id, workspace_id, job_id, n) of this source's items running with a live lease; exactly one binding `?` = now. */
  inFlightSql: string;
  /** SQL returning this source's active jobs with pending items: id, organization_id, workspace_id, dispatch_key, organization_key, workspace_key, organization_cursor, workspace_cursor, pending (count capped by the single binding `?` = cap). Join dispatch_tenants as CANDIDATES_SQL does today. */
  candidatesSql: string;
  /** Inside the dispatch transaction: start `n` pending items of each job (lease token `<instanceId>:<uuid>`, attempts+1, de-duplicated), mark their jobs running, and return the rows ready to work on. */
  start(
    trx: Knex,
    assignments: ReadonlyArray<{ job_id: string; n: number }>,
    options: { instanceId: string; now: Date; leaseMs: number },
  ): Promise<Row[]>;
};
