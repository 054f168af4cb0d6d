import type { TfIdf } from './tfidf.js';

/** Upper-cases the first letter. */
export const capitalise = (text: string): string => text.charAt(0).toUpperCase() + text.slice(1);

/** Per feature, the share of `members` whose vector has it. */
const coverage = (model: TfIdf, members: readonly number[]): Float64Array => {
  const share = new Float64Array(model.vocabulary.length);
  for (const i of members) for (const f of model.vectors[i]!.indices) share[f]! += 1;
  for (let f = 0; f < share.length; f++) share[f]! /= members.length || 1;
  return share;
};

/**
 * The features that set a group apart: the share of the group's texts using a feature minus the
 * share of all texts using it, as readable words. A feature sharing a word with one already
 * chosen is skipped, so labels do not repeat themselves.
 */
export const topTerms = (
  model: TfIdf,
  members: readonly number[],
  forms: ReadonlyMap<string, string>,
  count = 3,
): string[] => {
  const inGroup = coverage(model, members);
  const overall = coverage(
    model,
    model.vectors.map((_, i) => i),
  );
  const ranked = model.vocabulary
    .map((feature, i) => ({ feature, share: inGroup[i]!, score: inGroup[i]! - overall[i]! }))
    .filter((entry) => entry.share > 0)
    .sort((a, b) => b.score - a.score || b.share - a.share || (a.feature < b.feature ? -1 : 1));
  const chosen: string[] = [];
  const used = new Set<string>();
  for (const { feature } of ranked) {
    const parts = feature.split(' ');
    if (parts.some((part) => used.has(part))) continue;
    chosen.push(parts.map((part) => forms.get(part) ?? part).join(' '));
    for (const part of parts) used.add(part);
    if (chosen.length === count) break;
  }
  return chosen;
};

/** A label from top terms ("Appointment time, confirm"); "Other" when a group has no terms. */
export const labelOf = (terms: readonly string[]): string =>
  terms.length === 0 ? 'Other' : capitalise(terms.join(', '));
