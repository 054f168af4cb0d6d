import type {
  Evaluation,
  Metric,
  MetricDefinition,
  MetricVersion,
  MetricVersionDraftBody,
} from '@voice-eval/contract';
import { createRow } from './crud.js';
import { idOf, type MockEnv, notFound, paginate, type RouteImpl } from './env.js';
import type { ParsedRequest } from './respond.js';

/** What a metric judges, as the server freezes it in a version. */
export const definitionOf = (metric: Metric): MetricDefinition => ({
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

/** Keeps the metric's current definition as its version `metric.version`. */
export const recordVersion = (env: MockEnv, metric: Metric) =>
  env.metricVersions.push({
    metric_id: metric.id,
    version: metric.version,
    status: 'active',
    definition: definitionOf(metric),
    based_on: null,
    created_at: metric.updated_at,
    created_by: metric.created_by,
  });

/** The number the metric's next version takes: after every version it has, drafts included. */
export const nextVersion = (env: MockEnv, metric: Metric) =>
  Math.max(
    metric.version,
    ...env.metricVersions.filter((v) => v.metric_id === metric.id).map((v) => v.version),
  ) + 1;

/** The metric's versions as stored (a metric seeded without history has its current definition). */
export const versionsOf = (env: MockEnv, metric: Metric): MetricVersion[] => {
  const stored = env.metricVersions.filter((v) => v.metric_id === metric.id);
  const versions = stored.length > 0 ? stored : [{ ...definitionVersion(metric) }];
  return versions.map((v) => ({
    ...v,
    status: v.status === 'draft' ? 'draft' : v.version === metric.version ? metric.lifecycle : 'superseded',
  }));
};

const definitionVersion = (metric: Metric): MetricVersion => ({
  metric_id: metric.id,
  version: metric.version,
  status: metric.lifecycle,
  definition: definitionOf(metric),
  based_on: null,
  created_at: metric.updated_at,
  created_by: metric.created_by,
});

const problem = (status: number, code: string, detail: string) => ({ status, body: { code, detail } });

const metricOf = (req: ParsedRequest, env: MockEnv) => env.db.metrics.get(idOf(req), req.workspaceId);

const versionOf = (req: ParsedRequest, env: MockEnv, metric: Metric) =>
  versionsOf(env, metric).find((v) => v.version === Number(req.params.version));

/**
 * Draft versions as the server keeps them: drafted beside an active metric's version (the next
 * number), promoted only while the metric is at the version it was drafted from; `scoreVersion`
 * starts a pending evaluation per import of the labelled calls the version has no score for (the
 * mock's evaluations do not progress: seed results to see agreement).
 */
export const metricVersionImpls: Record<string, RouteImpl> = {
  'metrics.versions': (req, env) => {
    const metric = metricOf(req, env);
    if (!metric) return notFound('Metric');
    return paginate(
      versionsOf(env, metric).sort((a, b) => b.version - a.version),
      req.query,
    );
  },
  'metrics.createVersion': (req, env) => {
    const metric = metricOf(req, env);
    if (!metric) return notFound('Metric');
    if (metric.lifecycle !== 'active')
      return problem(409, 'conflict', 'A draft metric is not in use yet: edit it directly, then promote it.');
    const body = (req.body ?? {}) as MetricVersionDraftBody;
    const active = definitionOf(metric);
    const words = new Map((body.children ?? []).map((child) => [child.id, child]));
    const definition: MetricDefinition = {
      ...active,
      description: body.description ?? active.description,
      example: body.example ?? active.example,
      children: active.children.map((child) => ({
        ...child,
        description: words.get(child.id)?.description ?? child.description,
        example: words.get(child.id)?.example ?? child.example,
      })),
    };
    if (JSON.stringify(definition) === JSON.stringify(active))
      return problem(422, 'rule_violation', 'The draft changes nothing the judge reads.');
    const draft: MetricVersion = {
      metric_id: metric.id,
      version: nextVersion(env, metric),
      status: 'draft',
      definition,
      based_on: metric.version,
      created_at: env.seq.timestamp(),
      created_by: metric.created_by,
    };
    if (!env.metricVersions.some((v) => v.metric_id === metric.id))
      env.metricVersions.push(definitionVersion(metric));
    env.metricVersions.push(draft);
    return { status: 201, body: draft };
  },
  'metrics.promoteVersion': (req, env) => {
    const metric = metricOf(req, env);
    if (!metric) return notFound('Metric');
    const draft = env.metricVersions.find(
      (v) => v.metric_id === metric.id && v.version === Number(req.params.version),
    );
    if (!draft) return notFound('Metric version');
    if (draft.status !== 'draft') return problem(409, 'conflict', `Version ${draft.version} is not a draft.`);
    if (draft.based_on !== metric.version)
      return problem(409, 'conflict', `The metric changed after version ${draft.version} was drafted.`);
    draft.status = 'active';
    const { definition } = draft;
    const promoted = env.db.metrics.update(metric.id, {
      description: definition.description,
      example: definition.example,
      version: draft.version,
      children: metric.children.map((child) => {
        const words = definition.children.find((c) => c.id === child.id);
        return {
          ...child,
          ...(words && { description: words.description, example: words.example }),
          version: draft.version,
        };
      }),
      updated_at: env.seq.timestamp(),
    });
    return { status: 200, body: promoted };
  },
  'metrics.scoreVersion': (req, env) => {
    const metric = metricOf(req, env);
    if (!metric) return notFound('Metric');
    const version = versionOf(req, env, metric);
    if (!version) return notFound('Metric version');
    const labelled = [
      ...new Set(env.humanLabels.filter((l) => l.metric_id === metric.id).map((l) => l.call_import_row_id)),
    ].filter((id) => env.db.callImportRows.get(id));
    if (labelled.length === 0)
      return problem(422, 'rule_violation', 'No call is labelled on this metric yet.');
    const scored = new Set(
      env.db.evaluationRows
        .all()
        .filter((row) =>
          row.results.some((r) => r.metric_id === metric.id && r.metric_version === version.version),
        )
        .map((row) => row.call_import_row_id),
    );
    const byImport = new Map<string, string[]>();
    for (const id of labelled.filter((id) => !scored.has(id))) {
      const importId = env.db.callImportRows.get(id)!.call_import_id;
      byImport.set(importId, [...(byImport.get(importId) ?? []), id]);
    }
    const evaluations = [...byImport].map(
      ([callImportId, ids]) =>
        createRow(env, 'evaluations', req, {
          call_import_id: callImportId,
          metric_ids: [metric.id],
          status: 'pending',
          total_rows: ids.length,
          pending_rows: ids.length,
        }) as unknown as Evaluation,
    );
    return {
      status: 202,
      body: {
        metric_id: metric.id,
        version: version.version,
        labelled: labelled.length,
        already_scored: labelled.length - [...byImport.values()].flat().length,
        evaluations,
      },
    };
  },
};
