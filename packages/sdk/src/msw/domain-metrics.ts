import type { Metric, MetricDefinition, MetricVersion } from '@voice-eval/contract';
import { createRow, patchRow } from './crud.js';
import { idOf, type MockEnv, notFound, paginate, type RouteImpl } from './env.js';
import type { ParsedRequest } from './respond.js';

/** What a metric judges, as the server freezes it in a version. */
const definitionOf = (metric: Metric): MetricDefinition => ({
  description: metric.description,
  example: metric.example,
  metric_type: metric.metric_type,
  custom_data_type: metric.custom_data_type,
  custom_config: metric.custom_config,
  selection_mode: metric.selection_mode,
  children: (metric.children ?? []).map(({ id, name, description, example }) => ({
    id,
    name,
    description,
    example,
  })),
});

const recordVersion = (env: MockEnv, metric: Metric) =>
  env.metricVersions.push({
    metric_id: metric.id,
    version: metric.version,
    status: 'active',
    definition: definitionOf(metric),
    created_at: metric.updated_at,
    created_by: metric.created_by,
  });

const create = (lifecycle: Metric['lifecycle']) => (req: ParsedRequest, env: MockEnv) => {
  const metric = createRow(env, 'metrics', req, { lifecycle, version: 1 }) as unknown as Metric;
  recordVersion(env, metric);
  return { status: 201, body: metric };
};

/**
 * Metrics with versions, as the server keeps them: a create is version 1, an update that changes
 * what the metric judges makes the next, and `versions` lists them newest first (a metric seeded
 * into the store without history lists its current definition as its one version).
 */
export const metricImpls: Record<string, RouteImpl> = {
  'metrics.create': create('active'),
  'metrics.createDraft': create('draft'),
  'metrics.update': (req, env) => {
    const before = env.db.metrics.get(idOf(req), req.workspaceId);
    if (!before) return notFound('Metric');
    const reply = patchRow(env, 'metrics', req, (req.body ?? {}) as object);
    const after = reply.body as Metric | undefined;
    if (reply.status !== 200 || !after) return reply;
    if (JSON.stringify(definitionOf(before)) === JSON.stringify(definitionOf(after))) return reply;
    const bumped = env.db.metrics.update(after.id, { version: before.version + 1 })!;
    recordVersion(env, bumped);
    return { status: 200, body: bumped };
  },
  'metrics.versions': (req, env) => {
    const metric = env.db.metrics.get(idOf(req), req.workspaceId);
    if (!metric) return notFound('Metric');
    const stored = env.metricVersions.filter((v) => v.metric_id === metric.id);
    const versions = stored.length > 0 ? stored : [definitionVersion(metric)];
    const items: MetricVersion[] = [...versions]
      .sort((a, b) => b.version - a.version)
      .map((v) => ({ ...v, status: v.version < metric.version ? 'superseded' : metric.lifecycle }));
    return paginate(items, req.query);
  },
};

const definitionVersion = (metric: Metric): MetricVersion => ({
  metric_id: metric.id,
  version: metric.version,
  status: metric.lifecycle,
  definition: definitionOf(metric),
  created_at: metric.updated_at,
  created_by: metric.created_by,
});
