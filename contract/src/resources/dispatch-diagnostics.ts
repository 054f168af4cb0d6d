import { z } from 'zod';
import { qBool, Timestamp, Uuid } from '../common.js';
import { EvaluationStatusSchema } from './evaluation.js';

const Count = z.number().int().min(0);

export const DispatchDiagnosticsQuerySchema = z.object({
  /** One workspace; when omitted, every workspace of the organization with active dispatch state. */
  workspace_id: Uuid.optional(),
  /** Also list workspaces with zero pending rows and zero in-flight slots. */
  include_idle_workspaces: qBool.default(false),
});

/** Capacity limits of each dispatch level and the current in-flight counts (derived from rows). */
export const DispatchLimitsSchema = z.object({
  global_limit: Count,
  global_inflight: Count,
  global_at_capacity: z.boolean(),
  org_limit: Count,
  org_inflight: Count,
  org_at_capacity: z.boolean(),
  workspace_limit: Count,
  job_limit: Count,
  fair_dispatch_batch_size: Count,
});

/** State of the fair dispatcher: round-robin cursor, de-duplication and back-off. */
export const FairDispatchStateSchema = z.object({
  global_rr_cursor: Count,
  dispatch_dedupe_active: z.boolean(),
  dispatch_queue: z.string(),
  at_capacity_backoff_seconds: Count,
});

/** Dispatch state of one evaluation (job) of a workspace. */
export const DispatchEvaluationSchema = z.object({
  evaluation_id: Uuid,
  call_import_id: Uuid,
  status: EvaluationStatusSchema,
  total_rows: Count,
  pending_rows: Count,
  running_rows: Count,
  job_inflight: Count,
  job_at_capacity: z.boolean(),
});

/** Dispatch state of one workspace and its active evaluations. */
export const DispatchWorkspaceSchema = z.object({
  workspace_id: Uuid,
  workspace_name: z.string(),
  workspace_slug: z.string(),
  inflight: Count,
  inflight_at_capacity: z.boolean(),
  pending_dispatch_rows: Count,
  pending_import_rows: Count,
  eval_rr_cursor: Count,
  active_evaluations: Count,
  evaluations: z.array(DispatchEvaluationSchema),
});

/** Operator view of evaluation dispatch, to diagnose cross-workspace starvation. */
export const DispatchDiagnosticsSchema = z.object({
  limits: DispatchLimitsSchema,
  fair_dispatch: FairDispatchStateSchema,
  workspaces: z.array(DispatchWorkspaceSchema),
  generated_at: Timestamp,
});
export type DispatchDiagnostics = z.infer<typeof DispatchDiagnosticsSchema>;
