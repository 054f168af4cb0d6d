import { initContract } from '@ts-rest/core';
import { z } from 'zod';
import { IdParam, PageQuerySchema, pageOf } from '../common.js';
import {
  type CallImportCreateBody,
  CallImportDetailQuerySchema,
  CallImportDetailSchema,
  CallImportListQuerySchema,
  CallImportResourceSchema,
} from '../resources/call-import.js';
import {
  CallImportRowFilterQuerySchema,
  CallImportRowIdsSchema,
  CallImportRowSchema,
  CancelDiarisationBodySchema,
  CancelDiarisationResultSchema,
  RecordingPeaksQuerySchema,
  RecordingPeaksSchema,
  RecordingQuerySchema,
  RecordingUrlSchema,
  TranscribeBodySchema,
  TranscribeResultSchema,
} from '../resources/call-import-row.js';
import {
  DispatchDiagnosticsQuerySchema,
  DispatchDiagnosticsSchema,
} from '../resources/dispatch-diagnostics.js';

const c = initContract();
const callImportId = z.object({ call_import_id: IdParam });
const rowOfImport = z.object({ call_import_id: IdParam, row_id: IdParam });

/** The media types a stored recording is served as (judged by its content when it was stored). */
const RECORDING_TYPES = ['audio/wav', 'audio/mpeg', 'audio/ogg', 'audio/flac', 'audio/mp4'];
const recordingBytes = c.otherResponse({ contentType: 'audio/wav', body: c.type<Blob>() });

export const callImports = c.router({
  list: {
    method: 'GET',
    path: '/api/v1/call-imports',
    query: PageQuerySchema.merge(CallImportListQuerySchema),
    responses: { 200: pageOf(CallImportResourceSchema) },
    summary: 'List call imports of the workspace, newest first',
  },
  create: {
    method: 'POST',
    path: '/api/v1/call-imports',
    contentType: 'multipart/form-data',
    body: c.type<CallImportCreateBody>(),
    responses: { 201: CallImportResourceSchema },
    metadata: {
      multipart: {
        fileField: 'file',
        extraFileFields: {
          files: {
            multiple: true,
            description: 'Audio recordings (one row each), sent instead of `file`.',
          },
        },
        fields: {
          schema_id: 'Id of the call-import schema describing the rows (required).',
          column_mapping:
            'JSON object: schema parameter name -> source column header; parameters left out are matched to headers by name.',
          dataset: 'Dataset name to file the import under.',
          tag_ids: 'JSON array of tag ids, or the field repeated once per id.',
          sheet_name: 'XLSX worksheet to read; defaults to the first one.',
          provider: 'Where the calls came from; defaults to `upload`.',
        },
      },
    } as const,
    summary: 'Create a call import from a CSV or XLSX manifest or from audio files',
  },
  // Static path: declared before `/:call_import_id`.
  dispatchDiagnostics: {
    method: 'GET',
    path: '/api/v1/call-imports/dispatch-diagnostics',
    query: DispatchDiagnosticsQuerySchema,
    responses: { 200: DispatchDiagnosticsSchema },
    metadata: { minRole: 'ADMIN' } as const,
    summary: 'Diagnose evaluation dispatch across workspaces (operators)',
  },
  get: {
    method: 'GET',
    path: '/api/v1/call-imports/:call_import_id',
    pathParams: callImportId,
    query: CallImportDetailQuerySchema,
    responses: { 200: CallImportDetailSchema },
    summary: 'Get a call import with a window of its rows',
  },
  rowIds: {
    method: 'GET',
    path: '/api/v1/call-imports/:call_import_id/row-ids',
    pathParams: callImportId,
    query: CallImportRowFilterQuerySchema,
    responses: { 200: CallImportRowIdsSchema },
    summary: 'List every matching row id, for bulk selection across pages',
  },
  getRow: {
    method: 'GET',
    path: '/api/v1/call-imports/:call_import_id/rows/:row_id',
    pathParams: rowOfImport,
    responses: { 200: CallImportRowSchema },
    summary: 'Get one row of a call import',
  },
  recording: {
    method: 'GET',
    path: '/api/v1/call-imports/:call_import_id/rows/:row_id/recording',
    pathParams: rowOfImport,
    query: RecordingQuerySchema,
    responses: { 200: recordingBytes, 206: recordingBytes },
    metadata: { binary: { mediaTypes: RECORDING_TYPES, ranges: true, signedAccess: true } } as const,
    summary: "Download a row's stored recording",
    description:
      "The row's stored recording (uploaded, or recorded by a simulated voice call) in its stored media type. A `Range: bytes=` request is answered with 206 and the part, or 416 when the range is past the end. Works with credentials, or without them at a URL from `recording-url` until it expires. A row whose recording is only a URL the server does not keep, or that has none, is 404.",
  },
  recordingPeaks: {
    method: 'GET',
    path: '/api/v1/call-imports/:call_import_id/rows/:row_id/recording/peaks',
    pathParams: rowOfImport,
    query: RecordingPeaksQuerySchema,
    responses: { 200: RecordingPeaksSchema },
    summary: "Get per-channel peaks of a row's recording, to draw its waveform",
    description:
      "The stored WAV recording summarised per channel (left first) as the largest absolute sample of each of `points` equal slices, scaled to 0..1, with its duration: enough to draw a long call's waveform while its audio streams. A row without a stored recording is 404; a recording that is not a WAV file the server can read is 415.",
  },
  recordingUrl: {
    method: 'GET',
    path: '/api/v1/call-imports/:call_import_id/rows/:row_id/recording-url',
    pathParams: rowOfImport,
    responses: { 200: RecordingUrlSchema },
    summary: "Get a short-lived signed URL of a row's recording",
    description:
      'A URL of the recording that needs no credentials (for `<audio src>` or a download link) and expires after 15 minutes. It grants that one recording only; anyone holding it can fetch the recording until then.',
  },
  transcribe: {
    method: 'POST',
    path: '/api/v1/call-imports/:call_import_id/transcribe',
    pathParams: callImportId,
    body: TranscribeBodySchema,
    responses: { 202: TranscribeResultSchema },
    summary: 'Queue rows for transcription and diarisation',
  },
  cancelDiarisation: {
    method: 'POST',
    path: '/api/v1/call-imports/:call_import_id/cancel-diarisation',
    pathParams: callImportId,
    body: CancelDiarisationBodySchema,
    responses: { 200: CancelDiarisationResultSchema },
    summary: 'Cancel pending and running diarisation of rows',
  },
  delete: {
    method: 'DELETE',
    path: '/api/v1/call-imports/:call_import_id',
    pathParams: callImportId,
    body: c.noBody(),
    responses: { 204: c.noBody() },
    summary: 'Delete a call import with its rows and stored files',
  },
});
