import { z } from 'zod';
import { qBool, Timestamp, Uuid } from '../common.js';

/**
 * Lifecycle of an evaluation (and of each of its rows): `pending` -> `running` -> `completed` |
 * `failed`; `cancelled` from `pending` or `running`. An evaluation is `completed` once no row is
 * pending or running, even if some rows failed; `failed` only when it could not run at all.
 */
export const EVALUATION_STATUSES = ['pending', 'running', 'completed', 'failed', 'cancelled'] as const;
export const EvaluationStatusSchema = z.enum(EVALUATION_STATUSES);
export type EvaluationStatus = z.infer<typeof EvaluationStatusSchema>;

const Count = z.number().int().min(0);

/** The scoring of a call import's rows with a set of metrics by an LLM judge (a job). */
export const EvaluationSchema = z.object({
  id: Uuid,
  organization_id: Uuid,
  workspace_id: Uuid,
  call_import_id: Uuid,
  /** The evaluator whose metrics were used; null when metrics were given directly. */
  evaluator_id: Uuid.nullable(),
  metric_ids: z.array(Uuid),
  status: EvaluationStatusSchema,
  total_rows: Count,
  pending_rows: Count,
  running_rows: Count,
  completed_rows: Count,
  failed_rows: Count,
  cancelled_rows: Count,
  provider: z.string().nullable(),
  model: z.string().nullable(),
  error_message: z.string().nullable(),
  created_at: Timestamp,
  updated_at: Timestamp,
  started_at: Timestamp.nullable(),
  completed_at: Timestamp.nullable(),
  created_by: z.string(),
});
export type Evaluation = z.infer<typeof EvaluationSchema>;

/**
 * Start an evaluation: give exactly one of `evaluator_id` (use its metrics) or `metric_ids`.
 * `row_ids` limits it to some rows (default: every row with a transcript); provider and model
 * default to the organization's default AI provider.
 */
export const EvaluationCreateBodySchema = z
  .object({
    call_import_id: Uuid,
    evaluator_id: Uuid.optional(),
    metric_ids: z.array(Uuid).min(1).max(200).optional(),
    row_ids: z.array(Uuid).min(1).max(10_000).optional(),
    ai_provider_id: Uuid.optional(),
    model: z.string().min(1).max(200).optional(),
  })
  .superRefine((body, ctx) => {
    if ((body.evaluator_id === undefined) === (body.metric_ids === undefined)) {
      ctx.addIssue({
        code: 'custom',
        path: ['metric_ids'],
        message: 'Give exactly one of evaluator_id or metric_ids',
      });
    }
  });
export type EvaluationCreateBody = z.input<typeof EvaluationCreateBodySchema>;

export const EvaluationListQuerySchema = z.object({
  call_import_id: Uuid.optional(),
  status: EvaluationStatusSchema.optional(),
});

/** A metric's score for one row; `value` type follows the metric type, null when not applicable. */
export const EvaluationResultSchema = z.object({
  metric_id: Uuid,
  metric_name: z.string(),
  value: z.union([z.boolean(), z.number(), z.string(), z.array(z.string()), z.null()]),
  /** True when the value counts as a failure under the metric's failure policy. */
  flagged: z.boolean(),
  rationale: z.string().nullable(),
  /**
   * What the judge quoted for this value, each quote with the index of its turn in the call's
   * transcript: the diarised transcript, else the source transcript's speaker-labelled lines (0
   * for a source transcript without speakers). Quotes not found in the transcript are dropped.
   * Empty for voice metrics, for metrics that do not capture rationale, and on older results
   * (defaults to empty, so results written before it, in mocks too, still read).
   */
  evidence: z.array(z.object({ quote: z.string(), turn_index: z.number().int().min(0) })).default([]),
  /**
   * The version of the metric the value was scored with (the evaluation froze it when it started);
   * null on results written before metrics had versions (defaults to null, so they still read).
   */
  metric_version: z.number().int().min(1).nullable().default(null),
});
export type EvaluationResult = z.infer<typeof EvaluationResultSchema>;

/**
 * A problem the judge reported outside the evaluation's metrics (asked when one of them has
 * `allow_discovery`). `key` is the slug of `name`, the key `POST /metrics/from-discovered`
 * promotes; `metric_id` is the metric whose name's slug equals the key (the promoted one), else null.
 */
export const EvaluationDiscoverySchema = z.object({
  key: z.string(),
  name: z.string(),
  metric_type: z.enum(['boolean', 'rating', 'number', 'category']),
  observation: z.string(),
  /** A verbatim quote from the transcript, or null. */
  evidence: z.string().nullable(),
  metric_id: Uuid.nullable(),
});
export type EvaluationDiscovery = z.infer<typeof EvaluationDiscoverySchema>;

/** Why scoring a row failed; `transcript_unavailable` means the row had nothing to score. */
export const EVALUATION_ROW_ERROR_CODES = [
  'transcript_unavailable',
  'provider_error',
  'timeout',
  'invalid_provider_response',
  'cancelled',
  'attempts_exhausted',
] as const;

/** A typed row error: an expected outcome recorded on the row, not an HTTP error. */
export const EvaluationRowErrorSchema = z.object({
  code: z.enum(EVALUATION_ROW_ERROR_CODES),
  message: z.string(),
  provider: z.string().nullable(),
  model: z.string().nullable(),
  at: Timestamp,
});

/** The scoring of one call-import row within an evaluation. */
export const EvaluationRowSchema = z.object({
  id: Uuid,
  evaluation_id: Uuid,
  call_import_row_id: Uuid,
  conversation_id: z.string(),
  status: EvaluationStatusSchema,
  results: z.array(EvaluationResultSchema),
  /** Problems the judge reported outside the metrics; empty unless a metric allows discovery. */
  discovered: z.array(EvaluationDiscoverySchema),
  error: EvaluationRowErrorSchema.nullable(),
  /** Times the row was claimed by a worker. */
  attempts: Count,
  created_at: Timestamp,
  updated_at: Timestamp,
  completed_at: Timestamp.nullable(),
});
export type EvaluationRow = z.infer<typeof EvaluationRowSchema>;
/** An evaluation row as its schema reads it: fields with a default may be left out. */
export type EvaluationRowInput = z.input<typeof EvaluationRowSchema>;

export const EvaluationRowListQuerySchema = z.object({
  status: EvaluationStatusSchema.optional(),
  /** `true`: only rows with at least one flagged result; `false`: only rows with none. */
  flagged: qBool.optional(),
  /** Only the row scoring this call-import row (a call's verdicts in this evaluation). */
  call_import_row_id: Uuid.optional(),
});
