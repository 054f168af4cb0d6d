import type { ReviewItem, ReviewQueue } from '@voice-eval/contract';
import { createRow } from './crud.js';
import { LABELLER } from './domain-metrics.js';
import { type MockEnv, notFound, paginate, type RouteImpl } from './env.js';
import type { ParsedRequest } from './respond.js';

type Source = ReviewQueue['source'];
type Call = { call_import_row_id: string; call_import_id: string; conversation_id: string; flagged: boolean };

/** The source's calls: an evaluation's (or a suite run's) scored rows, or an import's rows. */
const callsOf = (env: MockEnv, source: Source, metricIds: readonly string[]): Call[] | null => {
  if (source.kind === 'call_import') {
    if (!env.db.callImports.get(source.call_import_id)) return null;
    return env.db.callImportRows
      .all()
      .filter((row) => row.call_import_id === source.call_import_id)
      .map((row) => ({
        call_import_row_id: row.id,
        call_import_id: row.call_import_id,
        conversation_id: row.conversation_id,
        flagged: false,
      }));
  }
  const evaluationId =
    source.kind === 'evaluation'
      ? source.evaluation_id
      : env.db.suiteRuns.get(source.suite_run_id)?.evaluation_id;
  if (!evaluationId || !env.db.evaluations.get(evaluationId)) return null;
  return env.db.evaluationRows
    .all()
    .filter((row) => row.evaluation_id === evaluationId && row.status === 'completed')
    .map((row) => ({
      call_import_row_id: row.call_import_row_id,
      call_import_id:
        env.db.callImportRows.get(row.call_import_row_id)?.call_import_id ??
        env.db.evaluations.get(evaluationId)!.call_import_id,
      conversation_id: row.conversation_id,
      flagged: row.results.some((r) => metricIds.includes(r.metric_id) && r.flagged),
    }));
};

const itemsOf = (env: MockEnv, queueId: string) =>
  env.db.reviewItems
    .all()
    .filter((item) => item.queue_id === queueId)
    .sort((a, b) => a.position - b.position);

const expired = (item: ReviewItem) =>
  item.status === 'claimed' && Date.parse(item.claim_expires_at ?? '') <= Date.now();

/** An item as the server answers it: an expired claim reads as open. */
const view = (item: ReviewItem): ReviewItem =>
  expired(item) ? { ...item, status: 'open', claimed_by: null, claim_expires_at: null } : item;

const withCounts = (env: MockEnv, queue: ReviewQueue): ReviewQueue => {
  const items = itemsOf(env, queue.id).map(view);
  const count = (status: ReviewItem['status']) => items.filter((i) => i.status === status).length;
  return {
    ...queue,
    counts: { total: items.length, open: count('open'), claimed: count('claimed'), done: count('done') },
  };
};

const queueOf = (req: ParsedRequest, env: MockEnv) =>
  env.db.reviewQueues.get(String(req.params.queue_id), req.workspaceId);

/**
 * Review queues over the mock store. The mock samples in source order (flagged calls first for
 * `flagged_first` and `disagreement_first`; it does not shuffle with the seed), has one reviewer
 * (the mock's user), and marks a call done once that user labelled it on every queue metric.
 */
export const reviewQueueImpls: Record<string, RouteImpl> = {
  'reviewQueues.create': (req, env) => {
    const body = req.body as ReviewQueue & { seed?: number };
    const calls = callsOf(env, body.source, body.metric_ids);
    if (!calls)
      return notFound(
        body.source.kind === 'call_import'
          ? 'Call import'
          : body.source.kind === 'suite_run'
            ? 'Suite run'
            : 'Evaluation',
      );
    const ordered =
      body.strategy === 'random'
        ? calls
        : [...calls.filter((c) => c.flagged), ...calls.filter((c) => !c.flagged)];
    const picked = ordered.slice(0, body.sample_size);
    const queue = createRow(env, 'reviewQueues', req, {
      seed: body.seed ?? 1,
      status: 'open',
    }) as unknown as ReviewQueue;
    for (const [i, call] of picked.entries()) {
      const { flagged: _flagged, ...ref } = call;
      env.db.reviewItems.create(env.fixtures.reviewItem({ ...ref, queue_id: queue.id, position: i + 1 }));
    }
    return { status: 201, body: withCounts(env, queue) };
  },
  'reviewQueues.get': (req, env) => {
    const queue = queueOf(req, env);
    return queue ? { status: 200, body: withCounts(env, queue) } : notFound('Review queue');
  },
  'reviewQueues.items': (req, env) => {
    const queue = queueOf(req, env);
    if (!queue) return notFound('Review queue');
    const status = (req.query as { status?: string }).status;
    return paginate(
      itemsOf(env, queue.id)
        .map(view)
        .filter((item) => status === undefined || item.status === status),
      req.query,
    );
  },
  'reviewQueues.next': (req, env) => {
    const queue = queueOf(req, env);
    if (!queue) return notFound('Review queue');
    const items = itemsOf(env, queue.id);
    const held = items.find((i) => i.status === 'claimed' && !expired(i) && i.claimed_by === LABELLER);
    const free = held ?? items.find((i) => i.status === 'open' || expired(i));
    if (!free) return { status: 200, body: { item: null } };
    const until = new Date(Date.now() + queue.lock_minutes * 60_000).toISOString();
    const item = env.db.reviewItems.update(free.id, {
      status: 'claimed',
      claimed_by: LABELLER,
      claim_expires_at: until,
    })!;
    return { status: 200, body: { item } };
  },
  'reviewQueues.complete': (req, env) => {
    const queue = queueOf(req, env);
    const item = queue && env.db.reviewItems.get(String(req.params.item_id));
    if (!queue || !item || item.queue_id !== queue.id) return notFound('Review item');
    if (item.status === 'done') return { status: 200, body: item };
    const missing = queue.metric_ids.filter(
      (metricId) =>
        !env.humanLabels.some(
          (l) =>
            l.metric_id === metricId &&
            l.call_import_row_id === item.call_import_row_id &&
            l.labelled_by === LABELLER,
        ),
    );
    if (missing.length > 0) {
      return {
        status: 422,
        body: { code: 'rule_violation', detail: 'Label the call on every metric of the queue first.' },
      };
    }
    const at = env.seq.timestamp();
    const done = env.db.reviewItems.update(item.id, {
      status: 'done',
      done_by: LABELLER,
      done_at: at,
      claimed_by: null,
      claim_expires_at: null,
    })!;
    if (itemsOf(env, queue.id).every((i) => i.status === 'done')) {
      env.db.reviewQueues.update(queue.id, { status: 'completed', completed_at: at });
    }
    return { status: 200, body: done };
  },
  'reviewQueues.release': (req, env) => {
    const item = env.db.reviewItems.get(String(req.params.item_id));
    if (!queueOf(req, env) || !item) return notFound('Review item');
    if (item.status === 'done')
      return { status: 409, body: { code: 'conflict', detail: 'The call is done.' } };
    return {
      status: 200,
      body: env.db.reviewItems.update(item.id, { status: 'open', claimed_by: null, claim_expires_at: null })!,
    };
  },
  'reviewQueues.list': (req, env) =>
    paginate(
      env.db.reviewQueues.all(req.workspaceId).map((queue) => withCounts(env, queue)),
      req.query,
    ),
  'reviewQueues.delete': (req, env) => {
    const queue = queueOf(req, env);
    if (!queue) return notFound('Review queue');
    env.db.reviewQueues.delete(queue.id);
    for (const item of itemsOf(env, queue.id)) env.db.reviewItems.delete(item.id);
    return { status: 204 };
  },
};
