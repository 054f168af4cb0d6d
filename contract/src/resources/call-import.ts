import { z } from 'zod';
import { qArray, qInt, StringMap, Timestamp, Uuid } from '../common.js';
import {
  CallImportRowFilterQuerySchema,
  CallImportRowSchema,
  DIARISATION_ERROR_CODES,
} from './call-import-row.js';
import { EvaluationStatusSchema } from './evaluation.js';
import { TagSchema } from './tag.js';

/**
 * Lifecycle of an import: `pending` (source stored, rows not yet ingested) -> `processing`
 * (rows being parsed) -> `completed` (every source row ingested or skipped) | `failed`
 * (the source could not be read; see `error_message`). `pending` may also go straight to `failed`.
 */
export const CALL_IMPORT_STATUSES = ['pending', 'processing', 'completed', 'failed'] as const;
export const CallImportStatusSchema = z.enum(CALL_IMPORT_STATUSES);
export type CallImportStatus = z.infer<typeof CallImportStatusSchema>;

/**
 * The kind of source an import was made from: a CSV or XLSX manifest, uploaded audio files, the
 * simulated calls of a suite run (`simulation`), or a live agent's calls as they arrive
 * (`production`, one import per agent).
 */
export const CALL_IMPORT_SOURCE_FORMATS = ['csv', 'xlsx', 'audio', 'simulation', 'production'] as const;
export const CallImportSourceFormatSchema = z.enum(CALL_IMPORT_SOURCE_FORMATS);

/**
 * The list filter: `audio` (manual recordings), `non_audio` (CSV, Excel or legacy imports),
 * `simulation` (suite runs) or `production` (live agents' calls).
 */
export const CALL_IMPORT_SOURCE_FORMAT_FILTERS = ['audio', 'non_audio', 'simulation', 'production'] as const;

/**
 * Why a source row produced no call-import row: `invalid_value` is a cell that does not read as its
 * parameter's type; `invalid_recording` a recording URL that is not http(s), or an uploaded file
 * that is not audio.
 */
export const SOURCE_ROW_SKIP_REASONS = [
  'empty_row',
  'missing_conversation_id',
  'duplicate_conversation_id',
  'missing_required_parameter',
  'invalid_value',
  'invalid_recording',
] as const;

/** A source row (1-based, header excluded) that was not ingested, and why. */
export const SourceRowSkipSchema = z.object({
  source_row: z.number().int(),
  reason: z.enum(SOURCE_ROW_SKIP_REASONS),
  message: z.string(),
});

/** A worksheet of an uploaded XLSX file (CSV sources report one sheet named after the file). */
export const AvailableSheetSchema = z.object({
  name: z.string(),
  headers: z.array(z.string()),
  row_count: z.number().int().min(0),
});

/**
 * A batch of recorded calls described by a call-import schema. (Not `CallImportSchema`: that name
 * is the type of the call-import-schema resource.)
 */
export const CallImportResourceSchema = z.object({
  id: Uuid,
  organization_id: Uuid,
  workspace_id: Uuid,
  /** Where the calls came from: `upload` for files sent to this API, or a telephony platform. */
  provider: z.string(),
  telephony_integration_id: Uuid.nullable(),
  /** Name of the uploaded manifest, or of the first audio file of a recording upload. */
  original_filename: z.string().nullable(),
  sheet_name: z.string().nullable(),
  dataset: z.string().nullable(),
  tags: z.array(TagSchema),
  schema_id: Uuid,
  /** Source column -> schema parameter name, as resolved (the inverse of `column_mapping`). */
  parameter_mapping: StringMap,
  /** Schema parameter name -> source column, as supplied on create. */
  column_mapping: StringMap,
  /** Extra source column -> key under which its values are kept on rows' `parameters`. */
  custom_column_mapping: StringMap,
  /** Source columns mapped to no schema parameter, kept on rows through `custom_column_mapping`. */
  extra_columns: z.array(z.string()),
  /** Source columns ignored entirely (empty headers, duplicates). */
  skipped_columns: z.array(z.string()),
  source_row_skips: z.array(SourceRowSkipSchema),
  source_storage_key: z.string().nullable(),
  source_format: CallImportSourceFormatSchema.nullable(),
  source_content_type: z.string().nullable(),
  source_size_bytes: z.number().int().min(0).nullable(),
  available_sheets: z.array(AvailableSheetSchema),
  total_rows: z.number().int().min(0),
  completed_rows: z.number().int().min(0),
  failed_rows: z.number().int().min(0),
  status: CallImportStatusSchema,
  error_message: z.string().nullable(),
  /** Status of the newest evaluation of this import; null when it was never evaluated. */
  latest_evaluation_status: EvaluationStatusSchema.nullable(),
  created_at: Timestamp,
  updated_at: Timestamp,
  /** Null when the actor was an API key rather than a user. */
  created_by_email: z.string().nullable(),
  last_updated_by_email: z.string().nullable(),
});
export type CallImport = z.infer<typeof CallImportResourceSchema>;

/**
 * Multipart fields of POST /api/v1/call-imports: either `file` (one CSV or XLSX manifest) or
 * `files` (audio recordings, one row each). Text fields arrive as strings; the server validates them.
 */
export type CallImportCreateBody = {
  file?: File | Blob;
  files?: Array<File | Blob>;
  schema_id: string;
  /** JSON object string: schema parameter name -> source column header. */
  column_mapping?: string;
  dataset?: string;
  /** JSON array string of tag ids, or the field repeated once per id. */
  tag_ids?: string | string[];
  /** XLSX worksheet to read; defaults to the first one. */
  sheet_name?: string;
  provider?: string;
};

export const CallImportListQuerySchema = z.object({
  status: CallImportStatusSchema.optional(),
  /** Exact, case-insensitive match; the literal `none` selects imports without a dataset. */
  dataset: z.string().max(200).optional(),
  /** Repeatable: an import must carry every given tag. */
  tag_id: qArray(Uuid).optional(),
  source_format: z.enum(CALL_IMPORT_SOURCE_FORMAT_FILTERS).optional(),
});

/** Detail query: a window of rows (`row_limit` 1..5000, default 100) plus the row filters. */
export const CallImportDetailQuerySchema = CallImportRowFilterQuerySchema.extend({
  row_limit: qInt.pipe(z.number().int().min(1).max(5000)).default('100'),
  row_offset: qInt.pipe(z.number().int().min(0)).default('0'),
});

/**
 * Transcription and diarisation over every row of an import (not only the filtered window): rows
 * per status, and the failed rows per error code.
 */
export const DiarisationSummarySchema = z.object({
  pending: z.number().int().min(0),
  running: z.number().int().min(0),
  completed: z.number().int().min(0),
  failed: z.number().int().min(0),
  errors_by_code: z.record(z.enum(DIARISATION_ERROR_CODES), z.number().int().min(0)),
});
export type DiarisationSummary = z.infer<typeof DiarisationSummarySchema>;

/** An import with a window of its rows, the number of rows matching the filters, and its diarisation. */
export const CallImportDetailSchema = CallImportResourceSchema.extend({
  rows: z.array(CallImportRowSchema),
  rows_total: z.number().int().min(0),
  diarisation: DiarisationSummarySchema,
});
export type CallImportDetail = z.infer<typeof CallImportDetailSchema>;
