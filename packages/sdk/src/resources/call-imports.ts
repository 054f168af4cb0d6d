import {
  type CallImport,
  type CallImportDetail,
  type CallImportRow,
  type CallImportRowIds,
  type CancelDiarisationResult,
  contract,
  type DispatchDiagnostics,
  type RecordingPeaks,
  type RecordingUrl,
  type TranscribeResult,
} from '@voice-eval/contract';
import type { ApiPromise } from '../core/api-promise.js';
import type { RequestOptions } from '../core/options.js';
import type { PagePromise } from '../core/pagination.js';
import { type PollOptions, poll } from '../core/polling.js';
import { Resource } from '../core/resource.js';
import type { RequestBody, RequestQuery } from '../core/route-types.js';
import { buildForm, type Uploadable } from '../core/uploads.js';

const routes = contract.callImports;

/**
 * Create a call import: either `file` (one CSV or XLSX manifest) or `files` (audio recordings,
 * one row each), described by the call-import schema `schema_id`.
 */
export interface CallImportCreateParams {
  file?: Uploadable;
  files?: Uploadable[];
  schema_id: string;
  /** Schema parameter name -> source column header (sent as a JSON object string). */
  column_mapping?: Record<string, string>;
  dataset?: string;
  tag_ids?: string[];
  /** XLSX worksheet to read. @default the first worksheet */
  sheet_name?: string;
  /** Where the calls came from. @default 'upload' */
  provider?: string;
}

/** Part of a recording to download: byte offsets, `end` inclusive; without `end`, to the last byte. */
export interface ByteRange {
  start: number;
  end?: number;
}

/** Diarisation progress of an import: rows still pending or running. */
export interface TranscriptionProgress {
  pending: number;
  running: number;
}

/** `client.callImports`: batches of recorded calls, their rows and transcription. */
export class CallImports extends Resource {
  /** List call imports of the workspace, newest first. */
  list(query?: RequestQuery<'callImports', 'list'>, options?: RequestOptions): PagePromise<CallImport> {
    return this._client.list(routes.list, { query }, options);
  }

  /** Create a call import by uploading a manifest or audio files (multipart). */
  create(params: CallImportCreateParams, options?: RequestOptions): ApiPromise<CallImport> {
    const { file, files, column_mapping, ...fields } = params;
    const body = buildForm(
      { ...fields, column_mapping: column_mapping && JSON.stringify(column_mapping) },
      { file, files },
    );
    return this._client.request(routes.create, { body }, options);
  }

  /** Diagnose evaluation dispatch across workspaces (operators). */
  dispatchDiagnostics(
    query?: RequestQuery<'callImports', 'dispatchDiagnostics'>,
    options?: RequestOptions,
  ): ApiPromise<DispatchDiagnostics> {
    return this._client.request(routes.dispatchDiagnostics, { query }, options);
  }

  /** Get a call import with a window of its rows. */
  get(
    id: string,
    query?: RequestQuery<'callImports', 'get'>,
    options?: RequestOptions,
  ): ApiPromise<CallImportDetail> {
    return this._client.request(routes.get, { params: { call_import_id: id }, query }, options);
  }

  /** List every matching row id, for bulk selection across pages. */
  rowIds(
    id: string,
    query?: RequestQuery<'callImports', 'rowIds'>,
    options?: RequestOptions,
  ): ApiPromise<CallImportRowIds> {
    return this._client.request(routes.rowIds, { params: { call_import_id: id }, query }, options);
  }

  /** Get one row of a call import. */
  getRow(id: string, rowId: string, options?: RequestOptions): ApiPromise<CallImportRow> {
    return this._client.request(routes.getRow, { params: { call_import_id: id, row_id: rowId } }, options);
  }

  /**
   * Download a row's stored recording. Resolves with the `Response`, its body unread: stream it
   * (`response.body`) or read it (`await response.arrayBuffer()`); `Content-Type` is the stored
   * media type. With `range`, only those bytes are sent (status 206, `Content-Range`); a range
   * past the end throws an `ApiError` with status 416.
   */
  recording(
    id: string,
    rowId: string,
    params: { range?: ByteRange } = {},
    options?: RequestOptions,
  ): ApiPromise<Response> {
    const { range } = params;
    const headers = range
      ? { range: `bytes=${range.start}-${range.end ?? ''}`, ...options?.headers }
      : undefined;
    return this._client.download(
      routes.recording,
      { params: { call_import_id: id, row_id: rowId } },
      headers ? { ...options, headers } : options,
    );
  }

  /**
   * Per-channel peaks of a row's stored WAV recording (left, the agent's, first): the largest
   * absolute sample of each of `points` equal slices (default 1000), 0..1, with the duration. Draw
   * a long call's waveform from these while its audio streams from `recordingUrl`.
   */
  recordingPeaks(
    id: string,
    rowId: string,
    query?: RequestQuery<'callImports', 'recordingPeaks'>,
    options?: RequestOptions,
  ): ApiPromise<RecordingPeaks> {
    return this._client.request(
      routes.recordingPeaks,
      { params: { call_import_id: id, row_id: rowId }, query },
      options,
    );
  }

  /**
   * A URL of a row's recording that needs no credentials, for `<audio src>` or a download link;
   * it expires at `expires_at` (15 minutes), and anyone holding it can fetch the recording until then.
   */
  recordingUrl(id: string, rowId: string, options?: RequestOptions): ApiPromise<RecordingUrl> {
    return this._client.request(
      routes.recordingUrl,
      { params: { call_import_id: id, row_id: rowId } },
      options,
    );
  }

  /** Queue rows for transcription and diarisation. */
  transcribe(
    id: string,
    body: RequestBody<'callImports', 'transcribe'>,
    options?: RequestOptions,
  ): ApiPromise<TranscribeResult> {
    return this._client.request(routes.transcribe, { params: { call_import_id: id }, body }, options);
  }

  /** Cancel pending and running diarisation of rows. */
  cancelDiarisation(
    id: string,
    body?: RequestBody<'callImports', 'cancelDiarisation'>,
    options?: RequestOptions,
  ): ApiPromise<CancelDiarisationResult> {
    return this._client.request(routes.cancelDiarisation, { params: { call_import_id: id }, body }, options);
  }

  /** Delete a call import with its rows and stored files. */
  delete(id: string, options?: RequestOptions): ApiPromise<void> {
    return this._client.request(routes.delete, { params: { call_import_id: id } }, options);
  }

  /**
   * Polls until no row of the import is pending or running diarisation, then resolves with the
   * import (its first rows, as `get` returns them). `onProgress` gets the counts on every poll.
   */
  async waitForTranscription(
    id: string,
    options: PollOptions<TranscriptionProgress> = {},
  ): Promise<CallImportDetail> {
    await poll(
      async (signal) => {
        const { diarisation } = await this.get(id, { row_limit: 1 }, { signal });
        return { pending: diarisation.pending, running: diarisation.running };
      },
      (p) => p.pending === 0 && p.running === 0,
      options,
      `transcription of call import ${id}`,
    );
    return this.get(id, undefined, { signal: options.signal });
  }
}
