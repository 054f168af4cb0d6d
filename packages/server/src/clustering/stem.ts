/**
 * The Porter (1980) stemming algorithm: `confirmed`, `confirming` and `confirmation` all become
 * `confirm`, so rationales worded differently share terms. Input is one lower-case ASCII word.
 */

const isConsonant = (word: string, i: number): boolean => {
  const ch = word[i];
  if (ch === 'a' || ch === 'e' || ch === 'i' || ch === 'o' || ch === 'u') return false;
  if (ch === 'y') return i === 0 || !isConsonant(word, i - 1);
  return true;
};

/** m in [C](VC)^m[V]: the number of vowel-consonant sequences of `stem`. */
const measure = (stem: string): number => {
  let m = 0;
  let i = 0;
  const n = stem.length;
  while (i < n && isConsonant(stem, i)) i++;
  while (i < n) {
    while (i < n && !isConsonant(stem, i)) i++;
    if (i >= n) break;
    while (i < n && isConsonant(stem, i)) i++;
    m++;
  }
  return m;
};

const hasVowel = (stem: string): boolean => {
  for (let i = 0; i < stem.length; i++) if (!isConsonant(stem, i)) return true;
  return false;
};

const endsDoubleConsonant = (word: string): boolean => {
  const n = word.length;
  return n >= 2 && word[n - 1] === word[n - 2] && isConsonant(word, n - 1);
};

/** *o: the stem ends consonant-vowel-consonant, the last not w, x or y. */
const endsCvc = (word: string): boolean => {
  const n = word.length;
  if (n < 3) return false;
  const last = word[n - 1]!;
  return (
    isConsonant(word, n - 3) && !isConsonant(word, n - 2) && isConsonant(word, n - 1) && !'wxy'.includes(last)
  );
};

/** Replaces the first matching suffix whose stem passes `when`; later rules are not tried. */
const replaceSuffix = (
  word: string,
  rules: ReadonlyArray<readonly [string, string]>,
  when: (stem: string) => boolean,
): string => {
  for (const [suffix, replacement] of rules) {
    if (!word.endsWith(suffix)) continue;
    const stem = word.slice(0, -suffix.length);
    return when(stem) ? stem + replacement : word;
  }
  return word;
};

const step1a = (w: string): string => {
  if (w.endsWith('sses') || w.endsWith('ies')) return w.slice(0, -2);
  if (w.endsWith('ss')) return w;
  return w.endsWith('s') ? w.slice(0, -1) : w;
};

const step1b = (w: string): string => {
  if (w.endsWith('eed')) return measure(w.slice(0, -3)) > 0 ? w.slice(0, -1) : w;
  const suffix = w.endsWith('ed') ? 'ed' : w.endsWith('ing') ? 'ing' : null;
  if (!suffix) return w;
  const stem = w.slice(0, -suffix.length);
  if (!hasVowel(stem)) return w;
  if (stem.endsWith('at') || stem.endsWith('bl') || stem.endsWith('iz')) return `${stem}e`;
  if (endsDoubleConsonant(stem) && !'lsz'.includes(stem.at(-1)!)) return stem.slice(0, -1);
  if (measure(stem) === 1 && endsCvc(stem)) return `${stem}e`;
  return stem;
};

const step1c = (w: string): string =>
  w.endsWith('y') && hasVowel(w.slice(0, -1)) ? `${w.slice(0, -1)}i` : w;

const STEP2: ReadonlyArray<readonly [string, string]> = [
  ['ational', 'ate'],
  ['tional', 'tion'],
  ['enci', 'ence'],
  ['anci', 'ance'],
  ['izer', 'ize'],
  ['bli', 'ble'],
  ['alli', 'al'],
  ['entli', 'ent'],
  ['eli', 'e'],
  ['ousli', 'ous'],
  ['ization', 'ize'],
  ['ation', 'ate'],
  ['ator', 'ate'],
  ['alism', 'al'],
  ['iveness', 'ive'],
  ['fulness', 'ful'],
  ['ousness', 'ous'],
  ['aliti', 'al'],
  ['iviti', 'ive'],
  ['biliti', 'ble'],
  ['logi', 'log'],
];

const STEP3: ReadonlyArray<readonly [string, string]> = [
  ['icate', 'ic'],
  ['ative', ''],
  ['alize', 'al'],
  ['iciti', 'ic'],
  ['ical', 'ic'],
  ['ful', ''],
  ['ness', ''],
];

const STEP4 = [
  'al',
  'ance',
  'ence',
  'er',
  'ic',
  'able',
  'ible',
  'ant',
  'ement',
  'ment',
  'ent',
  'ion',
  'ou',
  'ism',
  'ate',
  'iti',
  'ous',
  'ive',
  'ize',
].map((suffix) => [suffix, ''] as const);

const step4 = (w: string): string =>
  replaceSuffix(
    w,
    STEP4,
    (stem) => measure(stem) > 1 && (!w.endsWith('ion') || stem.endsWith('s') || stem.endsWith('t')),
  );

const step5 = (w: string): string => {
  let out = w;
  if (out.endsWith('e')) {
    const stem = out.slice(0, -1);
    const m = measure(stem);
    if (m > 1 || (m === 1 && !endsCvc(stem))) out = stem;
  }
  if (measure(out) > 1 && endsDoubleConsonant(out) && out.endsWith('l')) out = out.slice(0, -1);
  return out;
};

/** The Porter stem of a lower-case word; words of one or two letters are returned as they are. */
export const stem = (word: string): string => {
  if (word.length <= 2) return word;
  let w = step1c(step1b(step1a(word)));
  w = replaceSuffix(w, STEP2, (s) => measure(s) > 0);
  w = replaceSuffix(w, STEP3, (s) => measure(s) > 0);
  return step5(step4(w));
};
