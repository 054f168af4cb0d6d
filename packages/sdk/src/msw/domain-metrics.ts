import type {
  EvaluationRow,
  HumanLabel,
  Metric,
  MetricAgreement,
  MetricDefinition,
  MetricVersion,
} from '@voice-eval/contract';
import { createRow, patchRow } from './crud.js';
import { idOf, type MockEnv, notFound, paginate, type RouteImpl } from './env.js';
import type { ParsedRequest } from './respond.js';
import { wilsonInterval } from './stats.js';

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

/** Who labels in the mock: its one user. */
export const LABELLER = 'ada@example.test';

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
 * into the store without history lists its current definition as its one version). Labels are
 * stored as given (one per call for the mock's one user, newest first; the value is not checked
 * against the metric), and `agreement` measures the mock judge's accuracy against them.
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
  'metrics.setLabel': (req, env) => {
    const metric = env.db.metrics.get(String(req.params.metric_id), req.workspaceId);
    if (!metric) return notFound('Metric');
    const rowId = String(req.params.call_import_row_id);
    const row = env.db.callImportRows.get(rowId);
    if (!row) return notFound('Call');
    const body = (req.body ?? {}) as { value: HumanLabel['value']; note?: string };
    const at = env.seq.timestamp();
    const mine = (l: HumanLabel) =>
      l.metric_id === metric.id && l.call_import_row_id === rowId && l.labelled_by === LABELLER;
    const before = env.humanLabels.find(mine);
    const label: HumanLabel = {
      metric_id: metric.id,
      call_import_row_id: rowId,
      conversation_id: row.conversation_id,
      value: body.value,
      note: body.note ?? '',
      labelled_by: LABELLER,
      created_at: before?.created_at ?? at,
      updated_at: at,
    };
    env.humanLabels = [label, ...env.humanLabels.filter((l) => !mine(l))];
    return { status: 200, body: label };
  },
  'metrics.deleteLabel': (req, env) => {
    const count = env.humanLabels.length;
    env.humanLabels = env.humanLabels.filter(
      (l) =>
        !(
          l.metric_id === req.params.metric_id &&
          l.call_import_row_id === req.params.call_import_row_id &&
          l.labelled_by === LABELLER
        ),
    );
    return env.humanLabels.length < count ? { status: 204 } : notFound('Label');
  },
  'metrics.labels': (req, env) => {
    const metric = env.db.metrics.get(idOf(req), req.workspaceId);
    if (!metric) return notFound('Metric');
    const { call_import_row_id, labelled_by } = req.query as Record<string, string | undefined>;
    const labels = env.humanLabels.filter(
      (l) =>
        l.metric_id === metric.id &&
        (call_import_row_id === undefined || l.call_import_row_id === call_import_row_id) &&
        (labelled_by === undefined || l.labelled_by === labelled_by),
    );
    return paginate(labels, req.query);
  },
  'metrics.agreement': (req, env) => {
    const metric = env.db.metrics.get(idOf(req), req.workspaceId);
    if (!metric) return notFound('Metric');
    const asked = (req.query as { version?: number }).version;
    const version = asked === undefined ? metric.version : Number(asked);
    if (version > metric.version) {
      return {
        status: 422,
        body: { code: 'rule_violation', detail: `The metric has versions 1 to ${metric.version}.` },
      };
    }
    return { status: 200, body: agreementOf(env, metric, version) };
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

/**
 * The mock's agreement: the items (a call the mock's user labelled and the mock judge scored with
 * the version), the judge's accuracy with its Wilson interval, and the disagreements; the other
 * statistics are null here (override the handler to test how a screen reads them).
 */
const agreementOf = (env: MockEnv, metric: Metric, version: number): MetricAgreement => {
  const judged = new Map<string, EvaluationRow['results'][number]>();
  for (const row of env.db.evaluationRows.all()) {
    const result = row.results.find((r) => r.metric_id === metric.id && r.metric_version === version);
    if (result && !judged.has(row.call_import_row_id)) judged.set(row.call_import_row_id, result);
  }
  const items = env.humanLabels.flatMap((label) => {
    const judge = judged.get(label.call_import_row_id)?.value;
    return label.metric_id === metric.id && judge != null ? [{ label, judge }] : [];
  });
  const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);
  const agreed = items.filter((item) => same(item.label.value, item.judge)).length;
  const ci = wilsonInterval(agreed, items.length);
  return {
    metric_id: metric.id,
    version,
    metric_type: metric.metric_type,
    n: items.length,
    categorical: {
      accuracy: ci ? { estimate: agreed / items.length, low: ci.low, high: ci.high } : null,
      kappa: null,
      confusion: { labels: [], counts: [] },
    },
    flagged: null,
    ordinal: null,
    inter_annotator: [],
    disagreements: items
      .filter((item) => !same(item.label.value, item.judge))
      .map((item) => ({
        call_import_row_id: item.label.call_import_row_id,
        call_import_id: env.db.callImportRows.get(item.label.call_import_row_id)?.call_import_id ?? '',
        conversation_id: item.label.conversation_id,
        judge: item.judge,
        people: item.label.value,
      })),
    seed: 20_261_129,
  };
};
