import type { MonitorRule } from '@voice-eval/contract';
import type { Knex } from 'knex';

/** A `monitors` row. */
export type MonitorRow = {
  id: string;
  organization_id: string;
  workspace_id: string;
  agent_id: string;
  name: string;
  metric_ids: string[];
  sample_rate: number;
  rules: MonitorRule[];
  slack_webhook_url_sealed: string | null;
  is_active: boolean;
  evaluation_id: string | null;
  calls_seen: number;
  calls_sampled: number;
  created_by: string;
  created_at: Date;
  updated_at: Date;
};

/** A `monitor_alerts` row. */
export type AlertRow = {
  id: string;
  monitor_id: string;
  organization_id: string;
  workspace_id: string;
  rule_id: string;
  rule_type: MonitorRule['type'];
  summary: string;
  observed: Record<string, unknown>;
  production_call_id: string | null;
  call_import_row_id: string | null;
  slack_status: 'none' | 'pending' | 'sent' | 'failed';
  slack_attempts: number;
  fired_at: Date;
};

type Scope = { organizationId: string; workspaceId: string };

const JSON_COLUMNS = ['metric_ids', 'rules'] as const;

const encode = (row: Partial<MonitorRow>) => {
  const out: Record<string, unknown> = { ...row };
  for (const column of JSON_COLUMNS) if (column in row) out[column] = JSON.stringify(row[column]);
  return out;
};

export const findMonitor = (db: Knex, scope: Scope, id: string): Promise<MonitorRow | undefined> =>
  db('monitors')
    .where({ organization_id: scope.organizationId, workspace_id: scope.workspaceId, id })
    .first();

/** Locks a monitor until the transaction ends; undefined when another transaction holds it. */
export const lockMonitorIfFree = (trx: Knex, id: string): Promise<MonitorRow | undefined> =>
  trx('monitors').where({ id }).forUpdate().skipLocked().first();

export const monitorsQuery = (
  db: Knex,
  scope: Scope,
  filters: { agent_id?: string; is_active?: boolean },
) => {
  const base = db('monitors').where({
    organization_id: scope.organizationId,
    workspace_id: scope.workspaceId,
  });
  if (filters.agent_id) base.where('agent_id', filters.agent_id);
  if (filters.is_active !== undefined) base.where('is_active', filters.is_active);
  return base;
};

export const insertMonitor = async (trx: Knex, row: Partial<MonitorRow>): Promise<MonitorRow> => {
  const [created] = await trx('monitors').insert(encode(row)).returning('*');
  return created as MonitorRow;
};

export const updateMonitor = async (
  trx: Knex,
  id: string,
  patch: Partial<MonitorRow>,
): Promise<MonitorRow> => {
  const [updated] = await trx('monitors').where({ id }).update(encode(patch)).returning('*');
  return updated as MonitorRow;
};

/** A `monitor_calls` row. */
export type MonitorCallRow = {
  monitor_id: string;
  production_call_id: string;
  call_import_row_id: string;
  seq: number;
  sampled: boolean;
  state: 'waiting' | 'scoring' | 'done';
  evaluation_row_id: string | null;
  outcome: 'passed' | 'failed' | 'not_sampled' | 'error' | null;
  failures: string[];
  arrived_at: Date;
  scored_at: Date | null;
};

export const callsQuery = (db: Knex, monitorId: string, filters: { outcome?: string; sampled?: boolean }) => {
  const base = db('monitor_calls').where('monitor_id', monitorId);
  if (filters.outcome) base.where('outcome', filters.outcome);
  if (filters.sampled !== undefined) base.where('sampled', filters.sampled);
  return base;
};

export const alertsQuery = (db: Knex, monitorId: string) =>
  db('monitor_alerts').where('monitor_id', monitorId);

/** When a rule of the monitor last fired, or null. */
export const lastFiredAt = async (db: Knex, monitorId: string, ruleId: string): Promise<Date | null> => {
  const row = await db('monitor_alerts')
    .where({ monitor_id: monitorId, rule_id: ruleId })
    .max({ at: 'fired_at' })
    .first();
  return (row?.at as Date | null | undefined) ?? null;
};
