import { useQuery, useQueryClient } from '@tanstack/react-query';
import { getRouteApi, Link, useNavigate } from '@tanstack/react-router';
import type { Metric, ReviewItem, ReviewQueue } from '@voice-eval/contract';
import { useState } from 'react';
import { Loading, ProblemView } from '../../components/problem.tsx';
import { useClient } from '../../components/session-context.tsx';
import { CallPane, type CallRef } from '../call.tsx';
import { LABEL_KEYS, LabelPanel } from './label-panel.tsx';
import { Progress } from './progress.tsx';

const route = getRouteApi('/app/review/$queueId');

/** The call of an item, with the verdicts of the queue's source (a run's call shows its run's). */
const callOf = (queue: ReviewQueue, item: ReviewItem): CallRef => ({
  importId: item.call_import_id,
  rowId: item.call_import_row_id,
  runId: queue.source.kind === 'suite_run' ? queue.source.suite_run_id : undefined,
  evaluationId: queue.source.kind === 'evaluation' ? queue.source.evaluation_id : undefined,
});

/**
 * Labelling a review queue, one call at a time and from the keyboard: on opening, the page claims
 * your next call (or the one you hold), shows it with the judge's verdicts beside a panel that
 * proposes them as your labels, and after each save takes the next, until none is left for you.
 */
export const LabelPage = () => {
  const { queueId } = route.useParams();
  const client = useClient();
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const [labelled, setLabelled] = useState(0);
  const queue = useQuery({
    queryKey: ['review-queue', queueId],
    queryFn: () => client.reviewQueues.get(queueId),
    // others label too: the progress follows
    refetchInterval: 10_000,
  });
  const claimKey = ['review-claim', queueId];
  const claim = useQuery({
    queryKey: claimKey,
    queryFn: async () => {
      const { item } = await client.reviewQueues.next(queueId);
      // the claim changed the counts
      void queryClient.invalidateQueries({ queryKey: ['review-queue', queueId] });
      return item;
    },
    // a claim is asked for once per visit: the page takes the next itself after each save
    staleTime: Number.POSITIVE_INFINITY,
    gcTime: 0,
    refetchOnWindowFocus: false,
    retry: false,
  });
  const metricIds = queue.data?.metric_ids;
  const metrics = useQuery({
    queryKey: ['review-metrics', metricIds],
    queryFn: () => Promise.all((metricIds ?? []).map((id) => client.metrics.get(id))),
    enabled: metricIds !== undefined,
    staleTime: 60_000,
  });

  const onDone = (next: ReviewItem | null) => {
    setLabelled((n) => n + 1);
    queryClient.setQueryData(claimKey, next);
    void queryClient.invalidateQueries({ queryKey: ['review-queue', queueId] });
    // the metrics' agreement counts the new labels
    void queryClient.invalidateQueries({ queryKey: ['metric'] });
  };

  if (queue.isPending) return <Loading what="review queue" />;
  if (queue.isError) return <ProblemView error={queue.error} what="review queue" />;
  return (
    <section>
      <div className="page-head">
        <h1>{queue.data.name}</h1>
        <Progress queue={queue.data} />
        <output className="muted">
          You labelled {labelled} {labelled === 1 ? 'call' : 'calls'} here.
        </output>
        <Link to="/review">All review queues</Link>
      </div>
      {claim.isPending || metrics.isPending ? (
        <Loading what="your next call" />
      ) : claim.isError ? (
        <ProblemView error={claim.error} what="call to label" />
      ) : metrics.isError ? (
        <ProblemView error={metrics.error} what="metrics" />
      ) : claim.data === null ? (
        <Done queue={queue.data} metrics={metrics.data} />
      ) : (
        <div className="review">
          <LabelPanel
            key={`labels-${claim.data.id}`}
            queueId={queueId}
            item={claim.data}
            call={callOf(queue.data, claim.data)}
            metrics={metrics.data}
            onDone={onDone}
            onRelease={() => void navigate({ to: '/review' })}
          />
          <CallPane
            key={`call-${claim.data.id}`}
            call={callOf(queue.data, claim.data)}
            heading={`Call ${claim.data.position} of ${queue.data.counts.total}`}
            shortcuts={{ title: 'Labelling', shortcuts: LABEL_KEYS }}
          />
        </div>
      )}
    </section>
  );
};

/** No call left for you: the queue is done, or the rest are held by (or assigned to) others. */
const Done = ({ queue, metrics }: { queue: ReviewQueue; metrics: Metric[] }) => {
  const finished = queue.counts.done === queue.counts.total;
  return (
    <div className="empty">
      <h2>{finished ? 'Queue done' : 'Nothing left for you'}</h2>
      <p>
        {finished
          ? `Every call of this queue is labelled (${queue.counts.done}).`
          : `The ${queue.counts.total - queue.counts.done} calls not done yet are being labelled by others, or are not yours to take.`}
      </p>
      <p>How far the judge agrees with the labels:</p>
      <ul>
        {metrics.map((m) => (
          <li key={m.id}>
            <Link to="/metrics/$metricId" params={{ metricId: m.id }}>
              {m.name}
            </Link>
          </li>
        ))}
      </ul>
      <Link to="/review">Back to the review queues</Link>
    </div>
  );
};
