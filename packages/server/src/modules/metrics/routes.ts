import type { contract } from '@voice-eval/contract';
import { contextOf } from '../../context.js';
import type { Deps } from '../../deps.js';
import type { RouterFor } from '../../routers.js';
import { createDraftVersion, promoteVersion } from './drafts.js';
import { fromDiscovered } from './from-discovered.js';
import { generateMetric } from './generate.js';
import { parseBulk } from './parse-bulk.js';
import * as service from './service.js';
import { listVersions } from './versions.js';

/**
 * Handlers of `contract.metrics` but people's labels (and their export), agreement and scoring a version on them, which the labels module owns
 * and the app mounts beside these (labels read metrics, not the other way round).
 */
export type MetricRoutes = Omit<
  RouterFor<typeof contract.metrics>,
  'labels' | 'exportLabels' | 'setLabel' | 'deleteLabel' | 'agreement' | 'scoreVersion'
>;

export const metricRoutes = (deps: Deps): MetricRoutes => ({
  create: async ({ body, req }) => ({
    status: 201,
    body: await service.createMetric(deps, contextOf(req), body, 'active'),
  }),
  createDraft: async ({ body, req }) => ({
    status: 201,
    body: await service.createMetric(deps, contextOf(req), body, 'draft'),
  }),
  fromDiscovered: async ({ body, req }) => ({
    status: 201,
    body: await fromDiscovered(deps, contextOf(req), body),
  }),
  generate: async ({ body, req }) => ({
    status: 200,
    body: await generateMetric(deps, contextOf(req), body),
  }),
  parseBulk: async ({ body, req }) => ({
    status: 200,
    body: await parseBulk(deps, contextOf(req), body),
  }),
  list: async ({ query, req }) => ({
    status: 200,
    body: await service.listMetrics(deps, contextOf(req), query),
  }),
  get: async ({ params, req }) => ({
    status: 200,
    body: await service.getMetric(deps, contextOf(req), params.metric_id),
  }),
  update: async ({ params, body, req }) => ({
    status: 200,
    body: await service.updateMetric(deps, contextOf(req), params.metric_id, body),
  }),
  versions: async ({ params, query, req }) => ({
    status: 200,
    body: await listVersions(deps, contextOf(req), params.metric_id, query),
  }),
  createVersion: async ({ params, body, req }) => ({
    status: 201,
    body: await createDraftVersion(deps, contextOf(req), params.metric_id, body),
  }),
  promoteVersion: async ({ params, req }) => ({
    status: 200,
    body: await promoteVersion(deps, contextOf(req), params.metric_id, params.version),
  }),
  promote: async ({ params, req }) => ({
    status: 200,
    body: await service.promoteMetric(deps, contextOf(req), params.metric_id),
  }),
  delete: async ({ params, req }) => {
    await service.deleteMetric(deps, contextOf(req), params.metric_id);
    return { status: 204, body: undefined };
  },
});
