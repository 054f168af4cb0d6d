import { open } from 'node:fs/promises';

/** A worksheet as the import reports it in `available_sheets`. */
export type SheetInfo = { name: string; headers: string[]; row_count: number };

/**
 * A manifest opened for streaming: the header row of the chosen sheet, its data rows one at a
 * time (cells by column position), and on demand the header and row count of the other sheets.
 */
export interface ManifestSource {
  sheetName: string;
  headers: string[];
  records: AsyncIterable<unknown[]>;
  /** Every worksheet in workbook order, `chosen` standing for the one being read (CSV: just it). */
  sheets(chosen: SheetInfo): Promise<SheetInfo[]>;
  close(): Promise<void>;
}

/**
 * The source file cannot be read (malformed CSV, corrupt or oversized workbook): the import is
 * recorded as `failed` with this message as its `error_message`.
 */
export class SourceReadError extends Error {
  override name = 'SourceReadError';
}

/** The manifest kinds recognised by content. */
export type ManifestFormat = 'csv' | 'xlsx';

/**
 * The manifest format judged by content, never by name or declared type: a ZIP container is an
 * XLSX candidate (checked further when opened); text without NUL bytes is CSV (read as UTF-8);
 * anything else is null (415).
 */
export const detectManifestFormat = async (path: string): Promise<ManifestFormat | null> => {
  const file = await open(path, 'r');
  try {
    const head = Buffer.alloc(8_192);
    const { bytesRead } = await file.read(head, 0, head.length, 0);
    const bytes = head.subarray(0, bytesRead);
    if (bytes.subarray(0, 4).equals(Buffer.from([0x50, 0x4b, 0x03, 0x04]))) return 'xlsx';
    // text in any ASCII-compatible encoding has no NUL bytes; audio, images and documents do
    return bytesRead > 0 && !bytes.includes(0) ? 'csv' : null;
  } finally {
    await file.close();
  }
};
