import type { EvaluationResult } from '@voice-eval/contract';
import type { CitedQuote, PromptTurn } from '../../providers/index.js';

/** A turn the judge reads, with its index in the call's transcript (what `turn_index` counts). */
export type JudgedTurn = PromptTurn & { index: number };

/** Most quotes kept per result. */
const MAX_QUOTES = 3;

/**
 * Text as quotes are compared: case, Unicode forms and runs of white space ignored, and the quote
 * marks and trailing punctuation a model adds around a quote.
 */
const comparable = (text: string) =>
  text
    .normalize('NFKC')
    .toLowerCase()
    .replace(/\s+/g, ' ')
    .replace(/^[\s"'“”‘’«»]+|[\s"'“”‘’«».,!?;:…]+$/g, '');

/**
 * The judge's quotes that are in the transcript, each with the index of the turn it is in: the
 * turn the judge cited (its number as the prompt shows it, from 1), else the first turn holding
 * it. A quote found in no turn is dropped, never repaired: the evidence is what was said.
 */
export const placeQuotes = (
  turns: readonly JudgedTurn[],
  cited: readonly CitedQuote[],
): EvaluationResult['evidence'] => {
  if (cited.length === 0) return [];
  // each turn made comparable once, not once per quote
  const texts = turns.map((t) => comparable(t.text));
  const placed: EvaluationResult['evidence'] = [];
  const seen = new Set<string>();
  for (const { quote, turn } of cited) {
    const wanted = comparable(quote);
    if (wanted.length === 0) continue;
    const at = texts[turn - 1]?.includes(wanted)
      ? turn - 1
      : texts.findIndex((text) => text.includes(wanted));
    const index = turns[at]?.index;
    if (index === undefined || seen.has(`${index}:${wanted}`)) continue;
    seen.add(`${index}:${wanted}`);
    placed.push({ quote: quote.trim(), turn_index: index });
    if (placed.length === MAX_QUOTES) break;
  }
  return placed;
};
