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
  CancelDiarisationBodySchema,
  CancelDiarisationResultSchema,
  TranscribeBodySchema,
  TranscribeResultSchema,
} from '../resources/call-import-row.js';
import {
  DispatchDiagnosticsQuerySchema,
  DispatchDiagnosticsSchema,
} from '../resources/dispatch-diagnostics.js';

const c = initContract();
const callImportId = z.object({ call_import_id: IdParam });

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
