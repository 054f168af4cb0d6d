import type { SOURCE_ROW_SKIP_REASONS } from '@voice-eval/contract';
import type { Knex } from 'knex';
import type { ColumnPlan, ColumnTarget } from './mapping.js';
import { insertRows, type RowInput } from './row-repo.js';
import { readValue } from './values.js';

export type SkipReason = (typeof SOURCE_ROW_SKIP_REASONS)[number];
export type SourceRowSkip = { source_row: number; reason: SkipReason; message: string };

/**
 * Skipped source rows kept on an import: the first 10,000 (in source order). More are counted in
 * `total` but not listed, so a file of garbage cannot grow the import without bound.
 */
export const MAX_RECORDED_SKIPS = 10_000;
/** Rows per INSERT statement. */
const BATCH_ROWS = 1_000;

/** Collects skipped source rows up to {@link MAX_RECORDED_SKIPS}. */
export class SkipLog {
  readonly entries: SourceRowSkip[] = [];
  total = 0;

  add(source_row: number, reason: SkipReason, message: string): void {
    this.total++;
    if (this.entries.length < MAX_RECORDED_SKIPS) this.entries.push({ source_row, reason, message });
  }

  sorted(): SourceRowSkip[] {
    return [...this.entries].sort((a, b) => a.source_row - b.source_row);
  }
}

type Mapped = { ok: true; row: RowInput } | { ok: false; reason: SkipReason; message: string };

const isBlank = (cell: unknown) => cell === null || cell === undefined || String(cell).trim() === '';

const extraValue = (cell: unknown) => (isBlank(cell) ? null : String(cell));

/** One source record as a row, or why it is skipped. */
export const mapRecord = (plan: ColumnPlan, cells: readonly unknown[], sourceRow: number): Mapped => {
  if (cells.every(isBlank)) return { ok: false, reason: 'empty_row', message: 'The row is empty.' };
  const idTarget = plan.targets.find((t) => t.kind === 'parameter' && t.parameter.type === 'conversation_id');
  if (!idTarget || isBlank(cells[idTarget.index])) {
    return { ok: false, reason: 'missing_conversation_id', message: 'The conversation id is empty.' };
  }
  const row: RowInput = {
    conversation_id: '',
    source_row: sourceRow,
    parameters: {},
    recording_url: null,
    recording_storage_key: null,
    source_transcript: null,
  };
  for (const target of plan.targets) {
    const problem = applyCell(row, target, cells[target.index]);
    if (problem) return problem;
  }
  const missing = plan.parameters.find((p) => p.is_required && row.parameters[p.name] == null);
  if (missing) {
    return {
      ok: false,
      reason: 'missing_required_parameter',
      message: `The required "${missing.name}" is empty.`,
    };
  }
  return { ok: true, row };
};

/** Writes one cell into the row; returns the skip when the value does not read as its type. */
const applyCell = (row: RowInput, target: ColumnTarget, cell: unknown): Mapped | null => {
  if (target.kind === 'extra') {
    row.parameters[target.key] = extraValue(cell);
    return null;
  }
  const { parameter } = target;
  const read = readValue(parameter.type, cell);
  if (!read.ok) {
    const reason = parameter.type === 'recording_url' ? 'invalid_recording' : 'invalid_value';
    return { ok: false, reason, message: `"${parameter.name}": ${read.message}` };
  }
  row.parameters[parameter.name] = read.value;
  if (parameter.type === 'conversation_id') row.conversation_id = read.value ?? '';
  if (parameter.type === 'recording_url') row.recording_url ??= read.value;
  if (parameter.type === 'transcript') row.source_transcript ??= read.value;
  return null;
};

/** Inserts a batch; rows whose conversation id is already in the import are logged as duplicates. */
export const flushRows = async (db: Knex, callImportId: string, batch: RowInput[], skips: SkipLog) => {
  if (batch.length === 0) return 0;
  const inserted = await insertRows(db, callImportId, batch);
  for (const row of batch) {
    if (!inserted.has(row.source_row)) {
      skips.add(
        row.source_row,
        'duplicate_conversation_id',
        `Conversation "${row.conversation_id}" appears earlier.`,
      );
    }
  }
  return inserted.size;
};

/**
 * Streams a manifest's records into rows, in batches of {@link BATCH_ROWS}. One batch is written
 * while the next is parsed (the database works while this process reads), so memory holds two
 * batches whatever the file size. Returns the rows inserted, the data rows read and the skips.
 */
export const ingestRecords = async (
  db: Knex,
  callImportId: string,
  plan: ColumnPlan,
  records: AsyncIterable<unknown[]>,
) => {
  const skips = new SkipLog();
  let batch: RowInput[] = [];
  let writing: Promise<number> = Promise.resolve(0);
  let inserted = 0;
  let sourceRow = 0;
  try {
    for await (const cells of records) {
      sourceRow++;
      const mapped = mapRecord(plan, cells, sourceRow);
      if (!mapped.ok) skips.add(sourceRow, mapped.reason, mapped.message);
      else batch.push(mapped.row);
      if (batch.length >= BATCH_ROWS) {
        inserted += await writing;
        writing = flushRows(db, callImportId, batch, skips);
        writing.catch(() => undefined); // awaited below; a read failure must not leave it unhandled
        batch = [];
      }
    }
  } finally {
    // no statement may still run when the transaction ends (the source failing mid-way included)
    await writing.catch(() => undefined);
  }
  inserted += await writing;
  inserted += await flushRows(db, callImportId, batch, skips);
  return { inserted, dataRows: sourceRow, skips };
};
