import { stem } from './stem.js';

/**
 * English function words, plus words every failure rationale of a voice call shares ("agent",
 * "caller", "call"): they say nothing about the root cause, so they never become terms.
 */
export const STOPWORDS: ReadonlySet<string> = new Set(
  `a about above after again against all am an and any are aren as at be because been before being
  below between both but by can cannot could couldn did didn do does doesn doing don down during each
  few for from further had hadn has hasn have haven having he her here hers herself him himself his
  how i if in into is isn it its itself just let ll me more most much must my myself no nor not now
  of off on once only or other ought our ours ourselves out over own re same shall she should shouldn
  so some such than that the their theirs them themselves then there these they this those through
  to too under until up upon us very ve was wasn we were weren what when where which while who whom
  why will with won would wouldn you your yours yourself yourselves also even ever still yet however
  though although whether either neither per via etc one two get got getting make made instead
  agent agents caller callers customer customers user users call calls conversation conversations
  assistant bot voice speaker turn turns transcript rationale flagged metric failed fail failure`
    .split(/\s+/)
    .filter(Boolean),
);

/** Lower-case words of `text`: ASCII letters and digits, contractions split off ("didn't" -> "didn"). */
export const words = (text: string): string[] =>
  text
    .normalize('NFKD')
    .toLowerCase()
    .replace(/[\u0300-\u036f]/g, '')
    .split(/[^a-z0-9]+/)
    .filter((word) => word.length > 0);

/** A term of a text with the word it came from (for readable labels). */
export type Token = { term: string; word: string };

/** Content tokens: stopwords, single letters and bare numbers dropped, the rest stemmed. */
export const tokenize = (text: string): Token[] =>
  words(text)
    .filter((word) => word.length > 1 && !STOPWORDS.has(word) && !/^\d+$/.test(word))
    .map((word) => ({ term: stem(word), word }));

/**
 * The most frequent word behind each term across `texts` (ties: the shorter, then alphabetical),
 * so a label shows "refund", not the stem "refund" of "refunds" or "refunded".
 */
export const surfaceForms = (tokenLists: ReadonlyArray<readonly Token[]>): Map<string, string> => {
  const counts = new Map<string, Map<string, number>>();
  for (const tokens of tokenLists) {
    for (const { term, word } of tokens) {
      const byWord = counts.get(term) ?? new Map<string, number>();
      byWord.set(word, (byWord.get(word) ?? 0) + 1);
      counts.set(term, byWord);
    }
  }
  const forms = new Map<string, string>();
  for (const [term, byWord] of counts) {
    const best = [...byWord].sort(
      ([a, na], [b, nb]) => nb - na || a.length - b.length || (a < b ? -1 : a > b ? 1 : 0),
    )[0]!;
    forms.set(term, best[0]);
  }
  return forms;
};
