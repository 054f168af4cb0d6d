import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { getRouteApi, Link, useNavigate } from '@tanstack/react-router';
import { Pager } from '../../components/pager.tsx';
import { Loading, ProblemView } from '../../components/problem.tsx';
import { useCanWrite, useClient } from '../../components/session-context.tsx';
import { dateTime } from '../../format.ts';
import { ACTIVE, EvaluationStatus } from './evaluations.tsx';

const route = getRouteApi('/app/evaluations/$evaluationId');
const PAGE_SIZE = 50;

/** One evaluation: its progress, and each call's verdicts (or only the flagged calls), each opening the call. */
export const EvaluationPage = () => {
  const client = useClient();
  const queryClient = useQueryClient();
  const canWrite = useCanWrite();
  const navigate = useNavigate();
  const { evaluationId } = route.useParams();
  const search = route.useSearch();
  const page = search.page ?? 1;
  const evaluation = useQuery({
    queryKey: ['evaluation', evaluationId],
    queryFn: () => client.evaluations.get(evaluationId),
    refetchInterval: (query) => (query.state.data && ACTIVE.includes(query.state.data.status) ? 2000 : false),
  });
  const rows = useQuery({
    queryKey: ['evaluation-rows', evaluationId, search.flagged, page, evaluation.data?.completed_rows],
    queryFn: () =>
      client.evaluations.listRows(evaluationId, { flagged: search.flagged, page, page_size: PAGE_SIZE }),
    placeholderData: keepPreviousData,
    enabled: evaluation.isSuccess,
  });
  const cancel = useMutation({
    mutationFn: () => client.evaluations.cancel(evaluationId),
    onSuccess: (updated) => queryClient.setQueryData(['evaluation', evaluationId], updated),
  });

  if (evaluation.isPending) return <Loading what="evaluation" />;
  if (evaluation.isError) return <ProblemView error={evaluation.error} what="evaluation" />;
  const e = evaluation.data;
  return (
    <section>
      <div className="page-head">
        <h1>Evaluation of {dateTime(e.started_at ?? e.created_at)}</h1>
        <EvaluationStatus evaluation={e} />
        {canWrite && ACTIVE.includes(e.status) && (
          <button type="button" onClick={() => cancel.mutate()} disabled={cancel.isPending}>
            Cancel
          </button>
        )}
        <Link to="/clusters" search={{ evaluation: e.id }}>
          Failure clusters
        </Link>
      </div>
      {cancel.isError && <ProblemView error={cancel.error} what="evaluation" />}
      <dl className="facts">
        <div>
          <dt>Import</dt>
          <dd>
            <Link to="/imports/$importId" params={{ importId: e.call_import_id }}>
              {e.call_import_id.slice(0, 8)}
            </Link>
          </dd>
        </div>
        <div>
          <dt>Calls</dt>
          <dd>
            {e.completed_rows} scored, {e.failed_rows} failed, {e.cancelled_rows} cancelled,{' '}
            {e.pending_rows + e.running_rows} to go
          </dd>
        </div>
        <div>
          <dt>Judge</dt>
          <dd>{[e.provider, e.model].filter(Boolean).join(' · ') || 'the default provider'}</dd>
        </div>
      </dl>
      {e.error_message && <p className="error">{e.error_message}</p>}
      <div className="page-head">
        <h2>Calls</h2>
        <label>
          <input
            type="checkbox"
            checked={search.flagged === true}
            onChange={(ev) =>
              void navigate({
                to: '/evaluations/$evaluationId',
                params: { evaluationId },
                search: { flagged: ev.target.checked || undefined },
              })
            }
          />{' '}
          Flagged only
        </label>
      </div>
      {rows.isPending ? (
        <Loading what="calls" />
      ) : rows.isError ? (
        <ProblemView error={rows.error} what="calls" />
      ) : rows.data.total === 0 ? (
        <p className="empty">{search.flagged ? 'No call was flagged.' : 'No call scored yet.'}</p>
      ) : (
        <>
          <table>
            <thead>
              <tr>
                <th scope="col">Call</th>
                <th scope="col">Status</th>
                <th scope="col">Flagged on</th>
              </tr>
            </thead>
            <tbody>
              {rows.data.items.map((row) => {
                const flagged = row.results.filter((r) => r.flagged);
                return (
                  <tr key={row.id}>
                    <td>
                      <Link
                        to="/calls/$rowId"
                        params={{ rowId: row.call_import_row_id }}
                        search={{ import: e.call_import_id, evaluation: e.id, metric: flagged[0]?.metric_id }}
                      >
                        {row.conversation_id}
                      </Link>
                    </td>
                    <td>
                      <span className={`status status-${row.status}`}>{row.status}</span>
                      {row.error && (
                        <span className="error" title={row.error.message}>
                          {' '}
                          {row.error.code}
                        </span>
                      )}
                    </td>
                    <td>
                      {flagged.length === 0 ? (
                        <span className="muted">none</span>
                      ) : (
                        flagged.map((r) => r.metric_name).join(', ')
                      )}
                    </td>
                  </tr>
                );
              })}
            </tbody>
          </table>
          <Pager
            page={page}
            pageSize={PAGE_SIZE}
            total={rows.data.total}
            to={(p) => ({
              to: '/evaluations/$evaluationId',
              params: { evaluationId },
              search: { ...search, page: p },
            })}
          />
        </>
      )}
    </section>
  );
};
