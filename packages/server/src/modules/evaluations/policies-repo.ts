import type { NumericRuleSchema } from '@voice-eval/contract';
import type { Knex } from 'knex';
import type { z } from 'zod';

/** The organization and the workspace whose failure policies are read or replaced. */
type Scope = { organizationId: string; workspaceId: string };

/** A failure policy the workspace configured for one metric. */
export type PolicyRow = {
  id: string;
  organization_id: string;
  workspace_id: string;
  metric_id: string;
  failure_values: string[];
  failure_child_names: string[];
  numeric_rule: z.infer<typeof NumericRuleSchema> | null;
  updated_by: string;
  updated_at: Date;
};

export type PolicyWrite = Pick<
  PolicyRow,
  'metric_id' | 'failure_values' | 'failure_child_names' | 'numeric_rule'
>;

/** The policies a workspace configured. */
export const policyRows = (db: Knex, scope: Scope): Promise<PolicyRow[]> =>
  db('failure_policies')
    .where({ organization_id: scope.organizationId, workspace_id: scope.workspaceId })
    .orderBy('metric_id');

/** Locks the workspace row, serialising replacements of its policies. */
export const lockWorkspace = (trx: Knex, scope: Scope) =>
  trx('workspaces')
    .where({ id: scope.workspaceId, organization_id: scope.organizationId })
    .forUpdate()
    .first('id');

/** Replaces every configured policy of the workspace with `rows` (inside the caller's transaction). */
export const replacePolicies = async (
  trx: Knex,
  scope: Scope,
  rows: readonly PolicyWrite[],
  actor: string,
  now: Date,
): Promise<void> => {
  await trx('failure_policies')
    .where({ organization_id: scope.organizationId, workspace_id: scope.workspaceId })
    .delete();
  if (rows.length === 0) return;
  await trx('failure_policies').insert(
    rows.map((row) => ({
      organization_id: scope.organizationId,
      workspace_id: scope.workspaceId,
      metric_id: row.metric_id,
      failure_values: JSON.stringify(row.failure_values),
      failure_child_names: JSON.stringify(row.failure_child_names),
      numeric_rule: row.numeric_rule === null ? null : JSON.stringify(row.numeric_rule),
      updated_by: actor,
      updated_at: now,
    })),
  );
};
