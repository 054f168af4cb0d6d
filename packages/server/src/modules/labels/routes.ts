import { Readable } from 'node:stream';
import { initServer } from '@ts-rest/express';
import { contract } from '@voice-eval/contract';
import { contextOf } from '../../context.js';
import type { Deps } from '../../deps.js';
import { metricAgreement } from './agreement.js';
import { labelExportFile } from './export.js';
import { scoreVersionOnLabels } from './score-version.js';
import * as service from './service.js';

const s = initServer();
const routes = contract.metrics;

/**
 * People's labels of calls on a metric (and their export), the judge's agreement with them, and a version scored on them: routes under
 * `/metrics/{id}` that this module owns (it reads metrics, calls and scores; none of them reads it).
 */
export const labelRoutes = (deps: Deps) => ({
  labels: s.route(routes.labels, async ({ params, query, req }) => ({
    status: 200,
    body: await service.listLabels(deps, contextOf(req), params.metric_id, query),
  })),
  exportLabels: s.route(routes.exportLabels, async ({ params, query, req, res }) => {
    const file = await labelExportFile(deps, contextOf(req), params.metric_id, query);
    res.set({
      'content-type': file.contentType,
      'content-length': String(file.bytes.length),
      'content-disposition': `attachment; filename="${file.fileName}"`,
    });
    // ts-rest pipes a stream as it is, with the headers set here (CSV or JSON, as asked)
    return { status: 200, body: Readable.from([file.bytes]) as unknown as string };
  }),
  setLabel: s.route(routes.setLabel, async ({ params, body, req }) => ({
    status: 200,
    body: await service.setLabel(deps, contextOf(req), params.metric_id, params.call_import_row_id, body),
  })),
  deleteLabel: s.route(routes.deleteLabel, async ({ params, req }) => {
    await service.deleteLabel(deps, contextOf(req), params.metric_id, params.call_import_row_id);
    return { status: 204, body: undefined };
  }),
  agreement: s.route(routes.agreement, async ({ params, query, req }) => ({
    status: 200,
    body: await metricAgreement(deps, contextOf(req), params.metric_id, query),
  })),
  scoreVersion: s.route(routes.scoreVersion, async ({ params, body, req }) => ({
    status: 202,
    body: await scoreVersionOnLabels(deps, contextOf(req), params.metric_id, params.version, body),
  })),
});
