import {
  type EvaluationRow,
  type HumanLabel,
  type HumanLabelExportRow,
  labelExportCsv,
  labelExportFileName,
  type Metric,
  type MetricAgreement,
} from '@voice-eval/contract';
import { createRow, patchRow } from './crud.js';
import { definitionOf, nextVersion, recordVersion, versionsOf } from './domain-metric-versions.js';
import { idOf, type MockEnv, notFound, paginate, type RouteImpl } from './env.js';
import type { ParsedRequest } from './respond.js';
import { wilsonInterval } from './stats.js';

/** Who labels in the mock: its one user. */
export const LABELLER = 'ada@example.test';

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
 * against the metric), `exportLabels` writes them as the server does (the same CSV, with the mock
 * judge's value on the current version), and `agreement` measures the mock judge's accuracy
 * against them.
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
    const bumped = env.db.metrics.update(after.id, { version: nextVersion(env, before) })!;
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
  'metrics.exportLabels': (req, env) => {
    const metric = env.db.metrics.get(idOf(req), req.workspaceId);
    if (!metric) return notFound('Metric');
    if (metric.parent_metric_id) {
      return {
        status: 422,
        body: { code: 'rule_violation', detail: "Export the category's labels (the parent metric)." },
      };
    }
    const { format, call_import_row_id, labelled_by } = req.query as Record<string, string | undefined>;
    const judged = judgedOn(env, metric, metric.version);
    const rows = env.humanLabels
      .filter(
        (l) =>
          l.metric_id === metric.id &&
          (call_import_row_id === undefined || l.call_import_row_id === call_import_row_id) &&
          (labelled_by === undefined || l.labelled_by === labelled_by),
      )
      .map(
        (l): HumanLabelExportRow => ({
          metric_id: metric.id,
          metric_name: metric.name,
          call_import_id: env.db.callImportRows.get(l.call_import_row_id)?.call_import_id ?? '',
          call_import_row_id: l.call_import_row_id,
          conversation_id: l.conversation_id,
          value: l.value,
          note: l.note,
          labelled_by: l.labelled_by,
          created_at: l.created_at,
          updated_at: l.updated_at,
          judge_value: judged.get(l.call_import_row_id)?.value ?? null,
          judge_version: judged.has(l.call_import_row_id) ? metric.version : null,
        }),
      );
    const json = format === 'json';
    const headers = {
      'content-disposition': `attachment; filename="${labelExportFileName(metric.name, json ? 'json' : 'csv')}"`,
    };
    return json
      ? { status: 200, body: rows, headers }
      : {
          status: 200,
          body: new TextEncoder().encode(labelExportCsv(rows)),
          headers: { 'content-type': 'text/csv; charset=utf-8; header=present', ...headers },
        };
  },
  'metrics.agreement': (req, env) => {
    const metric = env.db.metrics.get(idOf(req), req.workspaceId);
    if (!metric) return notFound('Metric');
    const query = req.query as { version?: number; baseline_version?: number };
    const known = new Set(versionsOf(env, metric).map((v) => v.version));
    const version = query.version === undefined ? metric.version : Number(query.version);
    const baseline = query.baseline_version === undefined ? undefined : Number(query.baseline_version);
    for (const asked of [version, baseline]) {
      if (asked !== undefined && !known.has(asked)) {
        return {
          status: 422,
          body: { code: 'rule_violation', detail: `The metric has no version ${asked}.` },
        };
      }
    }
    return { status: 200, body: agreementOf(env, metric, version, baseline) };
  },
};

/**
 * The mock's agreement: the items (a call the mock's user labelled and the mock judge scored with
 * the version), the judge's accuracy with its Wilson interval, and the disagreements; the other
 * statistics are null here (override the handler to test how a screen reads them).
 */
const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

/** The mock judge's result on each call it scored with the version of the metric, by call row id. */
const judgedOn = (env: MockEnv, metric: Metric, version: number) => {
  const judged = new Map<string, EvaluationRow['results'][number]>();
  for (const row of env.db.evaluationRows.all()) {
    const result = row.results.find((r) => r.metric_id === metric.id && r.metric_version === version);
    if (result && !judged.has(row.call_import_row_id)) judged.set(row.call_import_row_id, result);
  }
  return judged;
};

/** The calls the mock's user labelled and the mock judge scored with the version. */
const itemsOf = (env: MockEnv, metric: Metric, version: number) => {
  const judged = judgedOn(env, metric, version);
  return env.humanLabels.flatMap((label) => {
    const judge = judged.get(label.call_import_row_id)?.value;
    return label.metric_id === metric.id && judge != null ? [{ label, judge }] : [];
  });
};

const share = (count: number, n: number) => {
  const ci = wilsonInterval(count, n);
  return ci ? { estimate: count / n, low: ci.low, high: ci.high } : null;
};

/** Two versions' accuracy on the calls both scored, and the calls only one of them gets right. */
const pairedOf = (
  env: MockEnv,
  metric: Metric,
  version: number,
  baseline: number,
): MetricAgreement['paired'] => {
  const before = new Map(
    itemsOf(env, metric, baseline).map((item) => [item.label.call_import_row_id, item.judge]),
  );
  const pairs = itemsOf(env, metric, version).filter((item) => before.has(item.label.call_import_row_id));
  let both = 0;
  let better = 0;
  let worse = 0;
  for (const item of pairs) {
    const now = same(item.label.value, item.judge);
    const then = same(item.label.value, before.get(item.label.call_import_row_id));
    if (now && then) both++;
    else if (now) better++;
    else if (then) worse++;
  }
  return {
    baseline_version: baseline,
    n: pairs.length,
    measure: 'accuracy',
    version: share(both + better, pairs.length),
    baseline: share(both + worse, pairs.length),
    difference: null,
    better,
    worse,
    p_value: signTest(better, worse),
  };
};

/** The exact two-sided sign test (McNemar's) on the calls only one version gets right. */
const signTest = (better: number, worse: number) => {
  const n = better + worse;
  let tail = 0;
  let choose = 1;
  for (let k = 0; k <= Math.min(better, worse); k++) {
    tail += choose;
    choose = (choose * (n - k)) / (k + 1);
  }
  return n === 0 ? 1 : Math.min(1, (2 * tail) / 2 ** n);
};

const agreementOf = (env: MockEnv, metric: Metric, version: number, baseline?: number): MetricAgreement => {
  const items = itemsOf(env, metric, version);
  const agreed = items.filter((item) => same(item.label.value, item.judge)).length;
  return {
    metric_id: metric.id,
    version,
    metric_type: metric.metric_type,
    n: items.length,
    categorical: {
      accuracy: share(agreed, items.length),
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
    paired: baseline === undefined ? null : pairedOf(env, metric, version, baseline),
    seed: 20_261_129,
  };
};
