import { createReadStream } from 'node:fs';
import { open } from 'node:fs/promises';
import { pipeline } from 'node:stream';
import { parse } from 'csv-parse';
import { type ManifestSource, SourceReadError } from './source.js';

/** Delimiters recognised in a header line, most common first (comma wins ties). */
const DELIMITERS = [',', ';', '\t', '|'] as const;
/** Largest CSV record (row) accepted, in bytes: bounds the parser's memory. */
const MAX_RECORD_BYTES = 8 * 1024 * 1024;

/** The first line of the file (at most 64 KiB), without a UTF-8 byte-order mark. */
const firstLine = async (path: string): Promise<string> => {
  const file = await open(path, 'r');
  try {
    const buffer = Buffer.alloc(65_536);
    const { bytesRead } = await file.read(buffer, 0, buffer.length, 0);
    const text = buffer
      .subarray(0, bytesRead)
      .toString('utf8')
      .replace(/^\uFEFF/, '');
    return text.split(/\r?\n/, 1)[0] ?? '';
  } finally {
    await file.close();
  }
};

/** The delimiter used most often outside quotes in the header line. */
export const sniffDelimiter = (line: string): string => {
  const counts = new Map<string, number>(DELIMITERS.map((d) => [d, 0]));
  let quoted = false;
  for (const char of line) {
    if (char === '"') quoted = !quoted;
    else if (!quoted && counts.has(char)) counts.set(char, counts.get(char)! + 1);
  }
  return [...counts].reduce((best, entry) => (entry[1] > best[1] ? entry : best))[0];
};

const describe = (error: unknown) => {
  const e = error as { message?: string; lines?: number };
  return `The CSV file could not be read${e.lines ? ` near line ${e.lines}` : ''}: ${e.message ?? String(error)}`;
};

/** Re-raises parser failures as {@link SourceReadError}, so the import records them as `failed`. */
async function* guarded(records: AsyncIterator<string[]>): AsyncGenerator<string[]> {
  try {
    for (let next = await records.next(); !next.done; next = await records.next()) yield next.value;
  } catch (error) {
    throw new SourceReadError(describe(error));
  }
}

/**
 * Streams a CSV manifest from disk: the delimiter is sniffed from the header line (`,` `;` tab
 * `|`), a UTF-8 BOM is dropped, rows may have fewer or more cells than the header, and each
 * record is bounded in size. Only one record is held at a time.
 */
export const openCsv = async (path: string, name: string): Promise<ManifestSource> => {
  const parser = parse({
    bom: true,
    delimiter: sniffDelimiter(await firstLine(path)),
    relax_column_count: true,
    skip_empty_lines: false,
    max_record_size: MAX_RECORD_BYTES,
  });
  pipeline(createReadStream(path), parser, () => undefined);
  const iterator = parser[Symbol.asyncIterator]() as AsyncIterator<string[]>;
  let header: IteratorResult<string[]>;
  try {
    header = await iterator.next();
  } catch (error) {
    throw new SourceReadError(describe(error));
  }
  if (header.done) throw new SourceReadError('The CSV file is empty: it needs a header row.');
  return {
    sheetName: name,
    headers: header.value.map((h) => String(h ?? '')),
    records: guarded(iterator),
    sheets: async (chosen) => [chosen],
    close: async () => void parser.destroy(),
  };
};
