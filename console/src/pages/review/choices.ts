import type { Metric } from '@voice-eval/contract';

/** A label's value, typed like the metric's results. */
export type LabelValue = boolean | number | string | string[];

/** One value to choose, as the labelling panel lists it (digit N picks the Nth). */
export type Choice = { value: boolean | number | string; label: string };

/**
 * How a metric is labelled: by choosing among its values (a boolean, a rating's scale, a category's
 * labels; several of them for a multi-label category), or by typing one (a number, or a category
 * whose labels are not defined).
 */
export type LabelKind =
  | { kind: 'choice'; multi: boolean; choices: Choice[] }
  | { kind: 'number'; min: number | null; max: number | null }
  | { kind: 'text'; multi: boolean };

/** A rating whose scale has more values than this is typed, as a number. */
const MAX_SCALE = 11;

const finite = (value: unknown): number | null =>
  typeof value === 'number' && Number.isFinite(value) ? value : null;

/** As the server reads a metric: a rating from 1 to 5 unless configured; labels from the children. */
export const labelKindOf = (metric: Metric): LabelKind => {
  const config = metric.custom_config as { min?: unknown; max?: unknown; labels?: unknown };
  switch (metric.metric_type) {
    case 'boolean':
      return {
        kind: 'choice',
        multi: false,
        choices: [
          { value: true, label: 'Yes' },
          { value: false, label: 'No' },
        ],
      };
    case 'rating': {
      const min = Math.ceil(finite(config.min) ?? 1);
      const max = Math.floor(finite(config.max) ?? 5);
      if (max < min || max - min + 1 > MAX_SCALE) return { kind: 'number', min, max };
      const choices = Array.from({ length: max - min + 1 }, (_, i) => ({
        value: min + i,
        label: String(min + i),
      }));
      return { kind: 'choice', multi: false, choices };
    }
    case 'number':
      return { kind: 'number', min: finite(config.min), max: finite(config.max) };
    case 'category': {
      const multi = metric.selection_mode === 'multi_label';
      const labels =
        metric.children.length > 0
          ? metric.children.map((child) => child.name)
          : Array.isArray(config.labels)
            ? config.labels.filter((label): label is string => typeof label === 'string')
            : [];
      if (labels.length === 0) return { kind: 'text', multi };
      return { kind: 'choice', multi, choices: labels.map((label) => ({ value: label, label })) };
    }
  }
};

const sameLabel = (a: string, b: string) => a.trim().toLowerCase() === b.trim().toLowerCase();

/**
 * The judge's value as a proposal for the label, in the metric's own spelling; undefined when the
 * judge gave none, or one the metric no longer takes.
 */
export const proposalOf = (kind: LabelKind, judged: unknown): LabelValue | undefined => {
  if (judged === null || judged === undefined) return undefined;
  if (kind.kind === 'number') return typeof judged === 'number' ? judged : undefined;
  if (kind.kind === 'text') {
    if (kind.multi) return Array.isArray(judged) ? judged.map(String) : undefined;
    return typeof judged === 'string' ? judged : undefined;
  }
  const find = (value: unknown) =>
    kind.choices.find((choice) =>
      typeof choice.value === 'string' && typeof value === 'string'
        ? sameLabel(choice.value, value)
        : choice.value === value,
    );
  if (kind.multi) {
    const values = Array.isArray(judged) ? judged : [judged];
    const found = values.flatMap((value) => find(value) ?? []);
    return found.length === values.length
      ? labelsInOrder(
          kind,
          found.map((choice) => choice.label),
        )
      : undefined;
  }
  return find(judged)?.value;
};

/** A multi-label value in the order of the metric's labels. */
const labelsInOrder = (kind: Extract<LabelKind, { kind: 'choice' }>, labels: readonly string[]) =>
  kind.choices.map((choice) => choice.label).filter((label) => labels.includes(label));

/**
 * The value after choosing option `n` (1-based) of a choice metric: that option, or for a
 * multi-label one the labels with option `n` toggled. Undefined when there is no option `n`.
 */
export const choose = (
  kind: LabelKind,
  current: LabelValue | undefined,
  n: number,
): LabelValue | undefined => {
  if (kind.kind !== 'choice') return undefined;
  const choice = kind.choices[n - 1];
  if (!choice) return undefined;
  if (!kind.multi) return choice.value;
  const now = Array.isArray(current) ? current : [];
  const label = String(choice.value);
  return labelsInOrder(kind, now.includes(label) ? now.filter((l) => l !== label) : [...now, label]);
};

/** Whether option `choice` is (one of) the value. */
export const isChosen = (value: LabelValue | undefined, choice: Choice): boolean =>
  Array.isArray(value) ? value.includes(String(choice.value)) : value === choice.value;

/** Whether two values are the same label (a multi-label set in any order). */
export const sameValue = (a: LabelValue | undefined, b: LabelValue | undefined): boolean => {
  const key = (v: LabelValue | undefined) => JSON.stringify(Array.isArray(v) ? [...v].sort() : v);
  return key(a) === key(b);
};

/** A value in words: Yes/No for booleans, labels joined. */
export const valueText = (value: LabelValue | undefined): string => {
  if (value === undefined) return 'none';
  if (typeof value === 'boolean') return value ? 'Yes' : 'No';
  if (Array.isArray(value)) return value.length === 0 ? 'no label' : value.join(', ');
  return String(value);
};

/** What a typed value (a number or a category's text) reads as; undefined when it is empty or not a number. */
export const typedValue = (kind: LabelKind, text: string): LabelValue | undefined => {
  const trimmed = text.trim();
  if (trimmed === '') return undefined;
  if (kind.kind === 'number') {
    const n = Number(trimmed);
    return Number.isFinite(n) ? n : undefined;
  }
  if (kind.kind === 'text' && kind.multi) {
    return [
      ...new Set(
        trimmed
          .split(',')
          .map((l) => l.trim())
          .filter(Boolean),
      ),
    ];
  }
  return trimmed;
};
