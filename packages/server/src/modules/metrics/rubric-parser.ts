/**
 * A deterministic parser of multi-label rubrics: each `Label #N` block becomes a label with a
 * name, a definition and examples. It tolerates markdown headings, bold keys, block quotes,
 * bullets, numbering, blank lines, horizontal rules and CRLF line ends; text before the first
 * block (a title, an introduction) is ignored.
 */

/** One `Label #N` block of a rubric. */
export type RubricLabel = {
  /** The N of `Label #N`. */
  number: number;
  name: string;
  definition: string;
  examples: string[];
};

type Field = 'name' | 'definition' | 'examples';

/** Longest names first so that `label name` wins over `label`. */
const FIELD_KEYS: Array<[Field, string]> = [
  ['name', 'label name'],
  ['name', 'name'],
  ['name', 'title'],
  ['name', 'label'],
  ['definition', 'definition'],
  ['definition', 'description'],
  ['definition', 'meaning'],
  ['definition', 'criteria'],
  ['examples', 'example phrases'],
  ['examples', 'sample phrases'],
  ['examples', 'examples'],
  ['examples', 'example'],
  ['examples', 'samples'],
];

const escapeRegExp = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
const KEY_LINE = new RegExp(
  `^(${FIELD_KEYS.map(([, key]) => escapeRegExp(key).replace(/ /g, '\\s+')).join('|')})\\s*(?:[:=\\-\\u2013\\u2014]\\s*(.*)|:?\\s*$)`,
  'i',
);
/** `e.g. "..."` and `For example: ...` introduce examples without needing a colon. */
const EXAMPLE_LINE = /^(?:e\.g\.?|for example,?)\s*[:\-\u2013\u2014]?\s*(.*)$/i;
const HEADER = /^label\s*#?\s*(\d+)\b\s*[:.)\-\u2013\u2014]*\s*(.*)$/i;
const RULE = /^\s*([-*_=])(\s*\1){2,}\s*$/;
const DECORATION = /^\s*(?:>\s*)*(?:#{1,6}\s+)?(?:(?:[-*+\u2022]|\d+[.)])\s+)?/;
const BULLET = /^\s*(?:[-*+\u2022]|\d+[.)])\s+/;

/** Markdown emphasis and code marks removed; `snake_case` words are left alone. */
const stripEmphasis = (text: string): string =>
  text
    .replace(/\*\*|__|`/g, '')
    .replace(/(^|\s)[*_](?=\S)/g, '$1')
    .replace(/(\S)[*_](?=\s|$|[:.,;!?])/g, '$1');

/** A line without its markdown decoration (quote marks, heading hashes, a bullet or a number). */
const clean = (line: string): string => stripEmphasis(line.replace(DECORATION, '')).trim();

const fieldOf = (key: string): Field =>
  FIELD_KEYS.find(([, k]) => k === key.toLowerCase().replace(/\s+/g, ' '))![0];

const unquote = (text: string): string => {
  const t = text.trim();
  const pairs: Array<[string, string]> = [
    ['"', '"'],
    ['\u201c', '\u201d'],
    ["'", "'"],
    ['\u2018', '\u2019'],
  ];
  for (const [open, close] of pairs) {
    if (t.length >= 2 && t.startsWith(open) && t.endsWith(close)) return t.slice(1, -1).trim();
  }
  return t;
};

/** Several examples on one line: quoted segments, or items separated by `;` or `|`. */
const splitInlineExamples = (text: string): string[] => {
  const quoted = [...text.matchAll(/["\u201c]([^"\u201d]+)["\u201d]/g)].map((m) => m[1]!.trim());
  if (quoted.length > 1) return quoted;
  return text
    .split(/\s*[;|]\s*/)
    .map(unquote)
    .filter(Boolean);
};

/** Paragraphs joined by a blank line; wrapped lines joined by a space; bullet lines kept on their own line. */
const joinProse = (lines: string[]): string => {
  const paragraphs: string[][] = [[]];
  for (const raw of lines) {
    const line = stripEmphasis(raw.replace(/^\s*(?:>\s*)*/, '')).trim();
    if (!line) paragraphs.push([]);
    else paragraphs[paragraphs.length - 1]!.push(BULLET.test(line) ? `\n${line}` : ` ${line}`);
  }
  return paragraphs
    .map((p) => p.join('').trim())
    .filter(Boolean)
    .join('\n\n');
};

type Block = { number: number; heading: string; fields: Record<Field, string[]>; free: string[] };

const newBlock = (number: number, heading: string): Block => ({
  number,
  heading,
  fields: { name: [], definition: [], examples: [] },
  free: [],
});

/** Splits the rubric into `Label #N` blocks, each line routed to the field it belongs to. */
const toBlocks = (text: string): Block[] => {
  const blocks: Block[] = [];
  let block: Block | null = null;
  let field: Field | null = null;
  const take = (line: string): void => {
    if (!block) return;
    const cleaned = clean(line);
    const key = KEY_LINE.exec(cleaned);
    const example = key ? null : EXAMPLE_LINE.exec(cleaned);
    if (key || example) {
      field = key ? fieldOf(key[1]!) : 'examples';
      const inline = key ? key[2] : example![1];
      if (inline) block.fields[field].push(inline);
      return;
    }
    if (field) block.fields[field].push(field === 'examples' ? cleaned : line);
    else block.free.push(line);
  };
  for (const line of text.replace(/\r\n?/g, '\n').replace(/\t/g, '  ').split('\n')) {
    const header = HEADER.exec(clean(line));
    if (header) {
      block = newBlock(Number(header[1]), '');
      blocks.push(block);
      field = null;
      if (KEY_LINE.test(header[2]!)) take(header[2]!);
      else block.heading = header[2]!;
    } else if (RULE.test(line)) {
      field = null;
    } else {
      take(line);
    }
  }
  return blocks;
};

const tidyName = (text: string): string =>
  unquote(
    stripEmphasis(text)
      .replace(/\s+/g, ' ')
      .replace(/^[\s:.\-\u2013\u2014(]+|[\s:.)]+$/g, ''),
  ).slice(0, 200);

const toLabel = (block: Block): RubricLabel => {
  const explicitName = block.fields.name.map(tidyName).find(Boolean);
  const definitionLines = block.fields.definition.length > 0 ? block.fields.definition : block.free;
  const examples = block.fields.examples
    .flatMap((line) => (line.trim() ? splitInlineExamples(line) : []))
    .filter(Boolean);
  return {
    number: block.number,
    name: explicitName ?? (tidyName(block.heading) || `Label ${block.number}`),
    definition: joinProse(definitionLines),
    examples,
  };
};

/** Every `Label #N` block of the rubric, in order of appearance; none when it has no such block. */
export const parseRubric = (text: string): RubricLabel[] => toBlocks(text).map(toLabel);
