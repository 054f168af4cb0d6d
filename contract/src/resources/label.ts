import { z } from 'zod';
import { Timestamp, Uuid } from '../common.js';
import { EvaluationSchema } from './evaluation.js';

/** A value as a metric's results hold it: boolean, rating or number, category, or several labels. */
export const LabelValueSchema = z.union([z.boolean(), z.number(), z.string(), z.array(z.string())]);

/**
 * A person's value for one call (a call-import row) on one metric, typed like the metric, with a
 * note. One per person per item: labelling it again replaces it.
 */
export const HumanLabelSchema = z.object({
  metric_id: Uuid,
  call_import_row_id: Uuid,
  conversation_id: z.string(),
  value: LabelValueSchema,
  note: z.string(),
  /** Who labelled it: the user's email, or `api_key:<prefix>`. */
  labelled_by: z.string(),
  created_at: Timestamp,
  updated_at: Timestamp,
});
export type HumanLabel = z.infer<typeof HumanLabelSchema>;

/** Label one call on a metric (your label: it replaces the one you gave before). */
export const HumanLabelBodySchema = z.object({
  value: LabelValueSchema,
  note: z.string().max(10_000).default(''),
});
export type HumanLabelBody = z.input<typeof HumanLabelBodySchema>;

export const HumanLabelListQuerySchema = z.object({
  call_import_row_id: Uuid.optional(),
  labelled_by: z.string().max(320).optional(),
});

/** A statistic with its 95% interval. */
const Estimate = z.object({ estimate: z.number(), low: z.number(), high: z.number() });

/**
 * How well the judge agrees with people on one version of a metric. Each item is a call labelled by
 * at least one person and scored by the judge with that version; the people's value is their
 * majority (booleans and categories; ties left out) or median (ratings and numbers). Statistics are
 * null where they are undefined (too few items, or no spread).
 */
export const MetricAgreementSchema = z.object({
  metric_id: Uuid,
  version: z.number().int().min(1),
  metric_type: z.enum(['boolean', 'rating', 'number', 'category']),
  /** Items with both a judge value and the people's. */
  n: z.number().int().min(0),
  /** Boolean and single-choice category metrics. */
  categorical: z
    .object({
      accuracy: Estimate.nullable(),
      kappa: Estimate.nullable(),
      /** Rows are the people's value, columns the judge's. */
      confusion: z.object({ labels: z.array(z.string()), counts: z.array(z.array(z.number().int())) }),
    })
    .nullable(),
  /** Whether the judge flags what people would flag, under the workspace's failure policy. */
  flagged: z
    .object({
      precision: Estimate.nullable(),
      recall: Estimate.nullable(),
      f1: Estimate.nullable(),
    })
    .nullable(),
  /** Rating and number metrics. */
  ordinal: z
    .object({
      mae: Estimate.nullable(),
      spearman: Estimate.nullable(),
      /** Share of items where the judge is within one step of the people (ratings only). */
      within_one: Estimate.nullable(),
    })
    .nullable(),
  /** Two people who labelled the same items: Cohen's kappa between them (categorical metrics). */
  inter_annotator: z.array(
    z.object({
      labellers: z.array(z.string()).length(2),
      n: z.number().int(),
      kappa: Estimate.nullable(),
    }),
  ),
  /** The items where the judge and the people disagree, newest labels first (at most 100). */
  disagreements: z.array(
    z.object({
      call_import_row_id: Uuid,
      call_import_id: Uuid,
      conversation_id: z.string(),
      judge: LabelValueSchema.nullable(),
      people: LabelValueSchema,
    }),
  ),
  /**
   * This version beside another (`baseline_version`) on the same items: the calls both versions
   * scored and people labelled. Null unless a baseline was asked for.
   */
  paired: z
    .object({
      baseline_version: z.number().int().min(1),
      n: z.number().int().min(0),
      /** `accuracy` (boolean and category metrics, higher is better) or `mae` (rating and number, lower is better). */
      measure: z.enum(['accuracy', 'mae']),
      /** This version's measure on the shared items. */
      version: Estimate.nullable(),
      baseline: Estimate.nullable(),
      /** This version's measure minus the baseline's (Newcombe's paired interval, or a paired bootstrap). */
      difference: Estimate.nullable(),
      /** Items where this version is closer to the people than the baseline, and where it is further. */
      better: z.number().int(),
      worse: z.number().int(),
      /** The exact McNemar (sign) test on `better` against `worse`: how likely a split this uneven is by chance. */
      p_value: z.number(),
    })
    .nullable(),
  /** The seed of the bootstrap intervals (F1, MAE): the same data gives the same intervals. */
  seed: z.number().int(),
});
export type MetricAgreement = z.infer<typeof MetricAgreementSchema>;

export const MetricAgreementQuerySchema = z.object({
  /** The version to measure; the metric's current one when absent. */
  version: z.coerce.number().int().min(1).optional(),
  /** Another version to set beside it on the same items (e.g. the active one, beside a draft). */
  baseline_version: z.coerce.number().int().min(1).optional(),
});

/**
 * A version set to score the labelled calls it has no score for: one evaluation per call import
 * that holds them (none when every labelled call is scored already).
 */
export const MetricVersionScoringSchema = z.object({
  metric_id: Uuid,
  version: z.number().int().min(1),
  /** Calls people labelled on the metric. */
  labelled: z.number().int().min(0),
  /** Of those, the calls that already had this version's score. */
  already_scored: z.number().int().min(0),
  evaluations: z.array(EvaluationSchema),
});
export type MetricVersionScoring = z.infer<typeof MetricVersionScoringSchema>;
