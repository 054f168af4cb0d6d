import type { ConsistencyCheck, ConsistencyCheckCreateBody, Evaluation } from '@voice-eval/contract';
import { createRow } from './crud.js';
import { type MockEnv, notFound, paginate, type RouteImpl } from './env.js';
import type { ParsedRequest } from './respond.js';
import { wilsonInterval } from './stats.js';

const rate = (count: number, n: number) => {
  const ci = wilsonInterval(count, n);
  return ci ? { estimate: count / n, low: ci.low, high: ci.high } : null;
};

/** A check with its counts read from its evaluations' completed rows, as the server reads them. */
const withCounts = (env: MockEnv, check: ConsistencyCheck): ConsistencyCheck => {
  const scores = new Map<string, Array<{ flagged: boolean; value: string }>>();
  for (const row of env.db.evaluationRows.all()) {
    if (!check.evaluation_ids.includes(row.evaluation_id) || row.status !== 'completed') continue;
    const result = row.results.find((r) => r.metric_id === check.metric_id);
    if (!result) continue;
    const seen = scores.get(row.call_import_row_id) ?? [];
    seen.push({ flagged: result.flagged, value: JSON.stringify(result.value) });
    scores.set(row.call_import_row_id, seen);
  }
  const complete = [...scores.values()].filter((s) => s.length === check.evaluation_ids.length);
  const flipped = complete.filter((s) => new Set(s.map((x) => x.flagged)).size > 1).length;
  const changed = complete.filter((s) => new Set(s.map((x) => x.value)).size > 1).length;
  const running = check.evaluation_ids.some((id) => {
    const status = env.db.evaluations.get(id)?.status;
    return status === 'pending' || status === 'running';
  });
  return {
    ...check,
    status: running ? 'running' : 'completed',
    n: complete.length,
    flipped,
    flip_rate: rate(flipped, complete.length),
    value_changed: changed,
    value_change_rate: rate(changed, complete.length),
  };
};

const metricOf = (req: ParsedRequest, env: MockEnv) =>
  env.db.metrics.get(String(req.params.metric_id), req.workspaceId);

/** The source's call rows: an evaluation's completed rows, or an import's rows. */
const sourceRows = (env: MockEnv, source: ConsistencyCheckCreateBody['source']) => {
  if (source.kind === 'call_import') {
    const rows = env.db.callImportRows.all().filter((row) => row.call_import_id === source.call_import_id);
    return { callImportId: source.call_import_id, rowIds: rows.map((row) => row.id) };
  }
  const evaluation = env.db.evaluations.get(source.evaluation_id);
  if (!evaluation) return null;
  const rows = env.db.evaluationRows
    .all()
    .filter((row) => row.evaluation_id === evaluation.id && row.status === 'completed');
  return { callImportId: evaluation.call_import_id, rowIds: rows.map((row) => row.call_import_row_id) };
};

/**
 * Consistency checks as the server keeps them: `create` takes the source's first calls (the mock
 * does not shuffle) and starts one pending evaluation per repeat; the mock's evaluations do not
 * progress, so a check stays `running` with no counts until a test seeds its rows.
 */
export const consistencyCheckImpls: Record<string, RouteImpl> = {
  'consistencyChecks.create': (req, env) => {
    const metric = metricOf(req, env);
    if (!metric) return notFound('Metric');
    const body = (req.body ?? {}) as ConsistencyCheckCreateBody;
    const source = sourceRows(env, body.source);
    if (!source) return notFound('Evaluation');
    if (source.rowIds.length < 2) {
      return {
        status: 422,
        body: { code: 'rule_violation', detail: 'The source has fewer than two calls to score.' },
      };
    }
    const sample = source.rowIds.slice(0, body.sample_size ?? 20);
    const repeats = body.repeats ?? 3;
    const evaluations = Array.from(
      { length: repeats },
      () =>
        createRow(
          env,
          'evaluations',
          { ...req, body: {} },
          {
            call_import_id: source.callImportId,
            metric_ids: [metric.id],
            status: 'pending',
            total_rows: sample.length,
            pending_rows: sample.length,
          },
        ) as unknown as Evaluation,
    );
    const check: ConsistencyCheck = {
      id: crypto.randomUUID(),
      organization_id: metric.organization_id,
      workspace_id: req.workspaceId ?? metric.workspace_id ?? metric.organization_id,
      metric_id: metric.id,
      version: metric.version,
      source: body.source,
      calls: sample.length,
      repeats,
      seed: body.seed ?? 1,
      ai_provider_id: body.ai_provider_id ?? null,
      provider: 'mock',
      model: body.model ?? null,
      evaluation_ids: evaluations.map((e) => e.id),
      status: 'running',
      n: 0,
      flipped: 0,
      flip_rate: null,
      value_changed: 0,
      value_change_rate: null,
      created_by: metric.created_by,
      created_at: env.seq.timestamp(),
    };
    env.consistencyChecks.unshift(check);
    return { status: 202, body: withCounts(env, check) };
  },
  'consistencyChecks.list': (req, env) => {
    const metric = metricOf(req, env);
    if (!metric) return notFound('Metric');
    const checks = env.consistencyChecks
      .filter((c) => c.metric_id === metric.id)
      .map((c) => withCounts(env, c));
    return paginate(checks, req.query);
  },
  'consistencyChecks.get': (req, env) => {
    const check = env.consistencyChecks.find(
      (c) => c.id === req.params.check_id && c.metric_id === req.params.metric_id,
    );
    return check && metricOf(req, env)
      ? { status: 200, body: withCounts(env, check) }
      : notFound('Consistency check');
  },
};
