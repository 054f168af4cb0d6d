import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { getRouteApi, Link } from '@tanstack/react-router';
import type { ReviewQueue } from '@voice-eval/contract';
import { Pager } from '../../components/pager.tsx';
import { Loading, ProblemView } from '../../components/problem.tsx';
import { useCanWrite, useClient } from '../../components/session-context.tsx';
import { dateTime } from '../../format.ts';
import { NewQueue, STRATEGY_NAMES } from './new-queue.tsx';
import { Progress } from './progress.tsx';

const route = getRouteApi('/app/review');
const PAGE_SIZE = 25;

/**
 * The workspace's review queues, newest first: where their calls come from, how they were picked,
 * how far people got; each opens the labelling page. Writers make new ones below.
 */
export const ReviewQueuesPage = () => {
  const client = useClient();
  const canWrite = useCanWrite();
  const search = route.useSearch();
  const queues = useQuery({
    queryKey: ['review-queues', search.page ?? 1],
    queryFn: () => client.reviewQueues.list({ page: search.page ?? 1, page_size: PAGE_SIZE }),
    placeholderData: keepPreviousData,
    // others label too: the progress follows
    refetchInterval: 10_000,
  });
  return (
    <section>
      <div className="page-head">
        <h1>Review queues</h1>
      </div>
      {queues.isPending ? (
        <Loading what="review queues" />
      ) : queues.isError ? (
        <ProblemView error={queues.error} what="review queues" />
      ) : queues.data.total === 0 ? (
        <p className="empty">
          No review queue yet. A queue samples calls of an evaluation, a suite run or an import for people to
          label on some metrics; the judge is then measured against their labels on each metric's page.
        </p>
      ) : (
        <>
          <table aria-label="Review queues">
            <thead>
              <tr>
                <th scope="col">Queue</th>
                <th scope="col">Calls from</th>
                <th scope="col">Picked</th>
                <th scope="col">Progress</th>
                <th scope="col">Status</th>
                <th scope="col">Made</th>
              </tr>
            </thead>
            <tbody>
              {queues.data.items.map((q) => (
                <tr key={q.id}>
                  <td>
                    <div className="actions">
                      <strong>{q.name}</strong>
                      {canWrite && q.status === 'open' && (
                        <Link to="/review/$queueId" params={{ queueId: q.id }} aria-label={`Label ${q.name}`}>
                          Label
                        </Link>
                      )}
                    </div>
                    {q.assignees.length > 0 && <div className="muted">for {q.assignees.join(', ')}</div>}
                  </td>
                  <td>
                    <Source queue={q} />
                  </td>
                  <td>
                    {STRATEGY_NAMES[q.strategy]}
                    <div className="muted">
                      {q.counts.total} of {q.sample_size} asked · seed {q.seed}
                    </div>
                  </td>
                  <td>
                    <Progress queue={q} />
                  </td>
                  <td>
                    <span className={q.status === 'completed' ? 'badge good' : 'badge'}>{q.status}</span>
                  </td>
                  <td className="when">
                    {dateTime(q.created_at)}
                    <div className="muted">{q.created_by}</div>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
          <Pager
            page={queues.data.page}
            pageSize={PAGE_SIZE}
            total={queues.data.total}
            to={(page) => ({ to: '/review', search: { page } })}
          />
        </>
      )}
      {canWrite && <NewQueue />}
    </section>
  );
};

/** Where a queue's calls come from, linked. */
const Source = ({ queue }: { queue: ReviewQueue }) => {
  const { source } = queue;
  switch (source.kind) {
    case 'evaluation':
      return (
        <Link to="/evaluations/$evaluationId" params={{ evaluationId: source.evaluation_id }}>
          an evaluation
        </Link>
      );
    case 'suite_run':
      return (
        <Link to="/runs/$runId" params={{ runId: source.suite_run_id }}>
          a suite run
        </Link>
      );
    case 'call_import':
      return (
        <Link to="/imports/$importId" params={{ importId: source.call_import_id }}>
          an import
        </Link>
      );
  }
};
