import { z } from 'zod';
import { Timestamp, Uuid } from '../common.js';

/**
 * How a queue picks its calls: `random` (a seeded shuffle), `flagged_first` (calls the judge
 * flagged on a queue metric, then the rest) or `disagreement_first` (calls where the judge and
 * earlier labels differ, then flagged ones, then the rest); each group shuffled with the seed.
 */
export const REVIEW_STRATEGIES = ['random', 'flagged_first', 'disagreement_first'] as const;

/** The calls a queue samples from: an evaluation's scored calls, a suite run's, or a call import's. */
export const ReviewQueueSourceSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('evaluation'), evaluation_id: Uuid }),
  z.object({ kind: z.literal('suite_run'), suite_run_id: Uuid }),
  z.object({ kind: z.literal('call_import'), call_import_id: Uuid }),
]);

/**
 * A work list of calls for people to label on some metrics. Its calls are sampled once, when it
 * is made; reviewers take them one at a time (`next`), each claim held for `lock_minutes`.
 */
export const ReviewQueueSchema = z.object({
  id: Uuid,
  organization_id: Uuid,
  workspace_id: Uuid,
  name: z.string(),
  source: ReviewQueueSourceSchema,
  metric_ids: z.array(Uuid),
  sample_size: z.number().int(),
  strategy: z.enum(REVIEW_STRATEGIES),
  seed: z.number().int(),
  /** Who may take its calls (emails, or `api_key:<prefix>`); empty: anyone in the workspace. */
  assignees: z.array(z.string()),
  lock_minutes: z.number().int(),
  /** `completed` once every call is done. */
  status: z.enum(['open', 'completed']),
  /** Calls by state; a claim that expired counts as open. */
  counts: z.object({
    total: z.number().int(),
    open: z.number().int(),
    claimed: z.number().int(),
    done: z.number().int(),
  }),
  created_by: z.string(),
  created_at: Timestamp,
  completed_at: Timestamp.nullable(),
});
export type ReviewQueue = z.infer<typeof ReviewQueueSchema>;

export const ReviewQueueCreateBodySchema = z.object({
  name: z.string().trim().min(1).max(200),
  source: ReviewQueueSourceSchema,
  /** The metrics to label (top-level metrics of the workspace). */
  metric_ids: z.array(Uuid).min(1).max(20),
  /** How many calls to take (all of them when the source has fewer). */
  sample_size: z.number().int().min(1).max(1000),
  strategy: z.enum(REVIEW_STRATEGIES).default('random'),
  /** The shuffle's seed: the same source and seed give the same calls in the same order. */
  seed: z.number().int().min(0).max(2_147_483_647).optional(),
  assignees: z.array(z.string().trim().min(1).max(320)).max(100).default([]),
  lock_minutes: z.number().int().min(1).max(1440).default(15),
});
export type ReviewQueueCreateBody = z.input<typeof ReviewQueueCreateBodySchema>;

/** A call of a queue. `claimed` only while the claim holds; an expired claim reads `open`. */
export const ReviewItemSchema = z.object({
  id: Uuid,
  queue_id: Uuid,
  position: z.number().int(),
  call_import_row_id: Uuid,
  call_import_id: Uuid,
  conversation_id: z.string(),
  status: z.enum(['open', 'claimed', 'done']),
  claimed_by: z.string().nullable(),
  claim_expires_at: Timestamp.nullable(),
  done_by: z.string().nullable(),
  done_at: Timestamp.nullable(),
});
export type ReviewItem = z.infer<typeof ReviewItemSchema>;

export const ReviewItemListQuerySchema = z.object({
  status: z.enum(['open', 'claimed', 'done']).optional(),
});

/** The call `next` handed you (the one you already hold, if any), or null when none is left for you. */
export const ReviewNextSchema = z.object({ item: ReviewItemSchema.nullable() });
