import StreamZip from 'node-stream-zip';
import { getWorksheets, getXlsxStream } from 'xlstream';
import { ApiError } from '../../../errors.js';
import { type ManifestSource, type SheetInfo, SourceReadError } from './source.js';

/** Largest total uncompressed size of a workbook's parts: refuses zip bombs before any XML is parsed. */
const MAX_UNCOMPRESSED_BYTES = 1024 * 1024 * 1024;
/** Largest shared-strings part (the one part held in memory while rows stream). */
const MAX_SHARED_STRINGS_BYTES = 128 * 1024 * 1024;

type Row = { raw: { arr: unknown[] } };

/** Checks the ZIP is a workbook of sane size, from its central directory only. */
const checkWorkbook = async (path: string): Promise<void> => {
  let entries: Record<string, { size: number }>;
  const zip = new StreamZip.async({ file: path });
  try {
    entries = await zip.entries();
  } catch (error) {
    throw new SourceReadError(`The XLSX file could not be read: ${(error as Error).message}`);
  } finally {
    await zip.close().catch(() => undefined);
  }
  if (!entries['xl/workbook.xml']) throw new SourceReadError('The ZIP file is not an XLSX workbook.');
  const total = Object.values(entries).reduce((sum, entry) => sum + entry.size, 0);
  const shared = entries['xl/sharedStrings.xml']?.size ?? 0;
  if (total > MAX_UNCOMPRESSED_BYTES || shared > MAX_SHARED_STRINGS_BYTES) {
    throw new SourceReadError('The XLSX file expands to more data than the import accepts.');
  }
};

const cells = (row: Row): unknown[] => Array.from(row.raw.arr, (value) => value ?? null);

/** Streams one worksheet's rows; read failures become {@link SourceReadError}. */
async function* sheetRows(path: string, sheet: string): AsyncGenerator<unknown[]> {
  try {
    const stream = await getXlsxStream({ filePath: path, sheet, withHeader: false, ignoreEmpty: false });
    try {
      for await (const row of stream) yield cells(row as Row);
    } finally {
      stream.destroy();
    }
  } catch (error) {
    if (error instanceof SourceReadError) throw error;
    throw new SourceReadError(`Worksheet "${sheet}" could not be read: ${(error as Error).message}`);
  }
}

const headerOf = (row: unknown[] | undefined) =>
  (row ?? []).map((cell) => (cell == null ? '' : String(cell)));

/** A worksheet's header row and number of data rows, streamed (nothing but a counter is kept). */
const describeSheet = async (path: string, name: string): Promise<SheetInfo> => {
  let headers: string[] | null = null;
  let rowCount = 0;
  for await (const row of sheetRows(path, name)) {
    if (headers === null) headers = headerOf(row);
    else rowCount++;
  }
  return { name, headers: headers ?? [], row_count: rowCount };
};

const pickSheet = (names: string[], wanted: string | undefined): string => {
  if (!wanted) return names[0]!;
  const found =
    names.find((n) => n === wanted) ?? names.find((n) => n.toLowerCase() === wanted.toLowerCase());
  if (found) return found;
  throw new ApiError('validation_failed', `The workbook has no worksheet "${wanted}".`, {
    errors: [{ path: 'body.sheet_name', message: `Expected one of: ${names.join(', ')}` }],
  });
};

/**
 * Streams an XLSX manifest from disk with xlstream (SAX over the zipped XML): rows of the chosen
 * sheet (default: the first) arrive one at a time; only the shared-strings table is held in
 * memory, and it is size-checked first.
 */
export const openXlsx = async (path: string, sheetName: string | undefined): Promise<ManifestSource> => {
  await checkWorkbook(path);
  let names: string[];
  try {
    names = (await getWorksheets({ filePath: path })).map((sheet) => sheet.name);
  } catch (error) {
    throw new SourceReadError(`The XLSX file could not be read: ${(error as Error).message}`);
  }
  if (names.length === 0) throw new SourceReadError('The workbook has no worksheets.');
  const chosen = pickSheet(names, sheetName);
  const rows = sheetRows(path, chosen);
  const first = await rows.next();
  if (first.done) throw new SourceReadError(`Worksheet "${chosen}" is empty: it needs a header row.`);
  return {
    sheetName: chosen,
    headers: headerOf(first.value),
    records: { [Symbol.asyncIterator]: () => rows },
    sheets: async (info) => {
      const infos: SheetInfo[] = [];
      for (const name of names) infos.push(name === chosen ? info : await describeSheet(path, name));
      return infos;
    },
    close: async () => void (await rows.return(undefined)),
  };
};
