import type { CallImportRowIds, contract } from '@voice-eval/contract';
import { contextOf } from '../../context.js';
import type { Deps } from '../../deps.js';
import { streamJsonDocument } from '../../http/json-stream.js';
import { publicBaseUrl } from '../../net/public-url.js';
import type { RouterFor } from '../../routers.js';
import { createCallImport } from './create.js';
import { getRow, openRecording, signRecordingUrl } from './recording-access.js';
import { recordingPeaks } from './recording-peaks.js';
import * as service from './service.js';
import { cancelDiarisation, transcribeCallImport } from './transcribe.js';
import { callImportUpload, uploadedFiles } from './upload.js';

/**
 * Handlers of `contract.callImports` but the dispatch diagnostics, which the evaluations module
 * owns and the app mounts beside these (evaluations reads call imports, not the other way round).
 */
export type CallImportRoutes = Omit<RouterFor<typeof contract.callImports>, 'dispatchDiagnostics'>;

export const callImportRoutes = (deps: Deps): CallImportRoutes => ({
  list: async ({ query, req }) => ({
    status: 200,
    body: await service.listCallImports(deps, contextOf(req), query),
  }),
  create: {
    middleware: callImportUpload(deps),
    handler: async ({ req }) => ({
      status: 201,
      body: await createCallImport(deps, contextOf(req), req.body, uploadedFiles(req)),
    }),
  },
  get: async ({ params, query, req }) => ({
    status: 200,
    body: await service.getCallImportDetail(deps, contextOf(req), params.call_import_id, query),
  }),
  rowIds: async ({ params, query, req, res }) => {
    const chunks = await service.rowIdsDocument(deps, contextOf(req), params.call_import_id, query);
    // ts-rest pipes a stream as it is: the database writes this JSON (up to millions of ids)
    const body = await streamJsonDocument(req, res, chunks);
    return { status: 200, body: body as unknown as CallImportRowIds };
  },
  getRow: async ({ params, req }) => ({
    status: 200,
    body: await getRow(deps, contextOf(req), params.call_import_id, params.row_id),
  }),
  recording: async ({ params, query, req, res }) => {
    const { status, headers, body } = await openRecording(
      deps,
      query.signature === undefined
        ? { kind: 'caller', ctx: contextOf(req) }
        : { kind: 'signed', expires: query.expires, signature: query.signature },
      params.call_import_id,
      params.row_id,
      (size) => {
        const ranges = req.range(size, { combine: true });
        // a unit other than bytes is ignored, as HTTP asks
        return Array.isArray(ranges) && ranges.type !== 'bytes' ? undefined : ranges;
      },
      req.method === 'HEAD',
    );
    res.set(headers);
    // a failed read cuts the connection, so a client never takes a short file for a whole one;
    // a client that hangs up releases the file
    body.on('error', (err) => {
      req.log?.error({ err }, 'response:stream_failed');
      res.destroy(err);
    });
    res.on('close', () => body.destroy());
    return { status, body: body as unknown as Blob };
  },
  recordingPeaks: async ({ params, query, req }) => ({
    status: 200,
    body: await recordingPeaks(deps, contextOf(req), params.call_import_id, params.row_id, query.points),
  }),
  recordingUrl: async ({ params, req }) => ({
    status: 200,
    body: await signRecordingUrl(
      deps,
      contextOf(req),
      publicBaseUrl(deps.config.publicUrl, req),
      params.call_import_id,
      params.row_id,
    ),
  }),
  transcribe: async ({ params, body, req }) => ({
    status: 202,
    body: await transcribeCallImport(deps, contextOf(req), params.call_import_id, body),
  }),
  cancelDiarisation: async ({ params, body, req }) => ({
    status: 200,
    body: await cancelDiarisation(deps, contextOf(req), params.call_import_id, body),
  }),
  delete: async ({ params, req }) => {
    await service.deleteCallImport(deps, contextOf(req), params.call_import_id);
    return { status: 204, body: undefined };
  },
});
