import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { getRouteApi, Link, useNavigate } from '@tanstack/react-router';
import { EVALUATION_STATUSES, type Evaluation } from '@voice-eval/contract';
import { SelectFilter } from '../../components/filters.tsx';
import { Pager } from '../../components/pager.tsx';
import { Loading, ProblemView } from '../../components/problem.tsx';
import { useClient } from '../../components/session-context.tsx';
import { dateTime } from '../../format.ts';

const route = getRouteApi('/app/evaluations');
const PAGE_SIZE = 25;
export const ACTIVE: ReadonlyArray<Evaluation['status']> = ['pending', 'running'];

/** Evaluations (a judge scoring an import's calls with metrics), newest first, with their progress. */
export const EvaluationsPage = () => {
  const client = useClient();
  const search = route.useSearch();
  const navigate = useNavigate();
  const evaluations = useQuery({
    queryKey: ['evaluations', search.status, search.import, search.page ?? 1],
    queryFn: () =>
      client.evaluations.list({
        status: search.status,
        call_import_id: search.import,
        page: search.page ?? 1,
        page_size: PAGE_SIZE,
      }),
    placeholderData: keepPreviousData,
    refetchInterval: (query) =>
      query.state.data?.items.some((e) => ACTIVE.includes(e.status)) ? 2000 : false,
  });
  return (
    <section>
      <div className="page-head">
        <h1>Evaluations</h1>
        <SelectFilter
          label="Status"
          value={search.status}
          choices={EVALUATION_STATUSES}
          onChange={(status) =>
            void navigate({ to: '/evaluations', search: { ...search, status, page: undefined } })
          }
        />
        {search.import && (
          <Link to="/evaluations" search={{ status: search.status }}>
            Every import's
          </Link>
        )}
      </div>
      {evaluations.isPending ? (
        <Loading what="evaluations" />
      ) : evaluations.isError ? (
        <ProblemView error={evaluations.error} what="evaluations" />
      ) : evaluations.data.total === 0 ? (
        <div className="empty">
          <h2>No evaluations{search.status || search.import ? ' match' : ' yet'}</h2>
          <p>
            Score an import's calls from its page (select calls, then “Score…”), or with the SDK:{' '}
            <code>
              client.evaluations.create({'{'} call_import_id, metric_ids {'}'})
            </code>
            . Every suite run scores its calls by itself.
          </p>
        </div>
      ) : (
        <>
          <table>
            <thead>
              <tr>
                <th scope="col">Started</th>
                <th scope="col">Import</th>
                <th scope="col">Status</th>
                <th scope="col">Calls scored</th>
                <th scope="col">Metrics</th>
                <th scope="col">Judge</th>
              </tr>
            </thead>
            <tbody>
              {evaluations.data.items.map((e) => (
                <tr key={e.id}>
                  <td>
                    <Link to="/evaluations/$evaluationId" params={{ evaluationId: e.id }}>
                      {dateTime(e.started_at ?? e.created_at)}
                    </Link>
                  </td>
                  <td>
                    <Link to="/imports/$importId" params={{ importId: e.call_import_id }}>
                      {e.call_import_id.slice(0, 8)}
                    </Link>
                  </td>
                  <td>
                    <EvaluationStatus evaluation={e} />
                  </td>
                  <td className="num">
                    {e.completed_rows} of {e.total_rows}
                    {e.failed_rows > 0 && <span className="error"> · {e.failed_rows} failed</span>}
                  </td>
                  <td className="num">{e.metric_ids.length}</td>
                  <td>{e.model ?? <span className="muted">default</span>}</td>
                </tr>
              ))}
            </tbody>
          </table>
          <Pager
            page={evaluations.data.page}
            pageSize={PAGE_SIZE}
            total={evaluations.data.total}
            to={(page) => ({ to: '/evaluations', search: { ...search, page } })}
          />
        </>
      )}
    </section>
  );
};

export const EvaluationStatus = ({ evaluation: e }: { evaluation: Evaluation }) => {
  const done = e.completed_rows + e.failed_rows + e.cancelled_rows;
  return (
    <span className={`status status-${e.status}`}>
      {e.status}
      {ACTIVE.includes(e.status) && e.total_rows > 0 && (
        <progress max={e.total_rows} value={done} aria-label={`${done} of ${e.total_rows} calls scored`} />
      )}
    </span>
  );
};
