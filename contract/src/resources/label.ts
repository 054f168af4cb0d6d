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

/** The whole export of a metric's labels, as CSV (the default) or JSON, filtered like the list. */
export const HumanLabelExportQuerySchema = HumanLabelListQuerySchema.extend({
  format: z.enum(['csv', 'json']).default('csv'),
});

/**
 * One label in a metric's export: the label with its metric and call, and the judge's value for
 * the call on the metric's current version with that version's number (both null when that
 * version has not scored it), so the export can be analysed without a second join and read later
 * knowing which wording judged.
 */
export const HumanLabelExportRowSchema = z.object({
  metric_id: Uuid,
  metric_name: z.string(),
  call_import_id: Uuid,
  call_import_row_id: Uuid,
  conversation_id: z.string(),
  value: LabelValueSchema,
  note: z.string(),
  labelled_by: z.string(),
  created_at: Timestamp,
  updated_at: Timestamp,
  judge_value: LabelValueSchema.nullable(),
  /** The metric version `judge_value` is from: the current one when it scored the call, else null. */
  judge_version: z.number().int().positive().nullable(),
});
export type HumanLabelExportRow = z.infer<typeof HumanLabelExportRowSchema>;

/** The columns of the CSV export, in order: the fields of a JSON row. */
export const LABEL_EXPORT_COLUMNS = [
  'metric_id',
  'metric_name',
  'call_import_id',
  'call_import_row_id',
  'conversation_id',
  'value',
  'note',
  'labelled_by',
  'created_at',
  'updated_at',
  'judge_value',
  'judge_version',
] as const satisfies ReadonlyArray<keyof HumanLabelExportRow>;

/** Text a spreadsheet would run as a formula (or that starts one after a tab or line break). */
const FORMULA_START = /^[=+\-@\t\r]/;

/** A field as RFC 4180 writes it: quoted (quotes doubled) when it holds a quote, comma or line break. */
const csvField = (text: string) => (/[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text);

/**
 * A value as a CSV cell: booleans `true`/`false`, numbers as written, several labels joined with
 * `|`, null empty. Text that a spreadsheet would read as a formula gets a leading `'`; a number
 * is a number, never a formula, so a negative one stays as it is.
 */
const csvCell = (value: string | number | boolean | readonly string[] | null): string => {
  if (value === null) return '';
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  const text = typeof value === 'string' ? value : value.join('|');
  return csvField(FORMULA_START.test(text) ? `'${text}` : text);
};

/**
 * The CSV export of a metric's labels (RFC 4180: a header row of `LABEL_EXPORT_COLUMNS`, CRLF
 * line ends), protected against formula injection; the server and the SDK's mock both write it.
 */
export const labelExportCsv = (rows: readonly HumanLabelExportRow[]): string =>
  [
    LABEL_EXPORT_COLUMNS.join(','),
    ...rows.map((row) => LABEL_EXPORT_COLUMNS.map((c) => csvCell(row[c])).join(',')),
  ]
    .map((line) => `${line}\r\n`)
    .join('');

/** The export's file name: `labels-<metric name as a slug>.csv` (or `.json`). */
export const labelExportFileName = (metricName: string, format: 'csv' | 'json'): string => {
  const slug = metricName
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .slice(0, 80)
    .replace(/^-+|-+$/g, '');
  return `labels-${slug || 'metric'}.${format}`;
};

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
  /** Of those, the calls that already had this version's score or are being scored with it now. */
  already_scored: z.number().int().min(0),
  evaluations: z.array(EvaluationSchema),
});
export type MetricVersionScoring = z.infer<typeof MetricVersionScoringSchema>;
