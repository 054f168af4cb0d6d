import { z } from 'zod';
import { Timestamp, Uuid } from '../common.js';

/** The calls a check re-scores: an evaluation's scored calls (a suite run's: its `evaluation_id`) or a call import's. */
export const ConsistencyCheckSourceSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('evaluation'), evaluation_id: Uuid }),
  z.object({ kind: z.literal('call_import'), call_import_id: Uuid }),
]);

/** A share of calls with its 95% Wilson interval. */
const Rate = z.object({ estimate: z.number(), low: z.number(), high: z.number() });

/**
 * How steady a metric's judge is: a sample of calls scored `repeats` times with the same metric
 * version and judge settings. A call flips when its verdict (flagged or not) differs between two
 * of its scores; the flip rate is the share of calls that flip, so a pass-rate change smaller than
 * it may be the judge's noise, not the agent's change.
 */
export const ConsistencyCheckSchema = z.object({
  id: Uuid,
  organization_id: Uuid,
  workspace_id: Uuid,
  metric_id: Uuid,
  /** The metric version scored, its current one when the check started. */
  version: z.number().int().min(1),
  source: ConsistencyCheckSourceSchema,
  /** Calls sampled from the source (fewer than asked when it has fewer). */
  calls: z.number().int(),
  repeats: z.number().int(),
  seed: z.number().int(),
  ai_provider_id: Uuid.nullable(),
  provider: z.string(),
  model: z.string().nullable(),
  /** One evaluation per repeat, over the same calls: follow them for progress, costs and errors. */
  evaluation_ids: z.array(Uuid),
  /** `running` while a repeat is; `completed` once all ended (a call some repeat failed on is left out). */
  status: z.enum(['running', 'completed']),
  /** Calls every repeat scored. */
  n: z.number().int(),
  /** Of those, calls whose verdict (flagged or not) changed between repeats. */
  flipped: z.number().int(),
  flip_rate: Rate.nullable(),
  /** Calls whose value changed between repeats (a rating moving 4 to 5 changes it, flagged or not). */
  value_changed: z.number().int(),
  value_change_rate: Rate.nullable(),
  created_by: z.string(),
  created_at: Timestamp,
});
export type ConsistencyCheck = z.infer<typeof ConsistencyCheckSchema>;

export const ConsistencyCheckCreateBodySchema = z.object({
  source: ConsistencyCheckSourceSchema,
  /** How many calls to re-score (all of them when the source has fewer). */
  sample_size: z.number().int().min(2).max(200).default(20),
  /** How many times to score each call. */
  repeats: z.number().int().min(2).max(10).default(3),
  /** The sample's seed: the same source and seed take the same calls. */
  seed: z.number().int().min(0).max(2_147_483_647).optional(),
  /** The judge: by default the source evaluation's (provider and model), else the workspace's. */
  ai_provider_id: Uuid.optional(),
  model: z.string().trim().min(1).max(200).optional(),
});
export type ConsistencyCheckCreateBody = z.input<typeof ConsistencyCheckCreateBodySchema>;
