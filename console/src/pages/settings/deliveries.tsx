import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { getRouteApi, useNavigate } from '@tanstack/react-router';
import { WEBHOOK_DELIVERY_STATUSES, type WebhookDelivery, type WebhookEndpoint } from '@voice-eval/contract';
import { useState } from 'react';
import { SelectFilter } from '../../components/filters.tsx';
import { Pager } from '../../components/pager.tsx';
import { Loading, ProblemView } from '../../components/problem.tsx';
import { useClient } from '../../components/session-context.tsx';
import { count, dateTime, milliseconds } from '../../format.ts';
import { problemText } from './parts.tsx';

const route = getRouteApi('/app/settings/webhooks/$endpointId');
const PAGE_SIZE = 20;
const UNDER_WAY: ReadonlyArray<WebhookDelivery['status']> = ['pending', 'running'];

/** The endpoint's deliveries, newest first, each with its attempts; a finished one can be sent again. */
export const Deliveries = ({ endpoint }: { endpoint: WebhookEndpoint }) => {
  const client = useClient();
  const queryClient = useQueryClient();
  const search = route.useSearch();
  const navigate = useNavigate();
  const [outcome, setOutcome] = useState('');
  const deliveries = useQuery({
    queryKey: ['webhook-deliveries', endpoint.id, search.status, search.page ?? 1],
    queryFn: () =>
      client.webhookEndpoints.listDeliveries(endpoint.id, {
        status: search.status,
        page: search.page ?? 1,
        page_size: PAGE_SIZE,
      }),
    placeholderData: keepPreviousData,
    refetchInterval: (query) =>
      query.state.data?.items.some((d) => UNDER_WAY.includes(d.status)) ? 1000 : false,
  });
  const redeliver = useMutation({
    mutationFn: (d: WebhookDelivery) => client.webhookEndpoints.redeliver(endpoint.id, d.id),
    onSuccess: () => {
      setOutcome('Sent again: the new delivery is at the top of the log.');
      void queryClient.invalidateQueries({ queryKey: ['webhook-deliveries', endpoint.id] });
    },
    onError: (error) => setOutcome(problemText(error)),
  });
  return (
    <>
      <div className="page-head">
        <h2>Deliveries</h2>
        <SelectFilter
          label="Status"
          value={search.status}
          choices={WEBHOOK_DELIVERY_STATUSES}
          onChange={(status) =>
            void navigate({
              to: '/settings/webhooks/$endpointId',
              params: { endpointId: endpoint.id },
              search: { status },
            })
          }
        />
        <output className={redeliver.isError ? 'bad' : 'good'}>{outcome}</output>
      </div>
      {deliveries.isPending ? (
        <Loading what="deliveries" />
      ) : deliveries.isError ? (
        <ProblemView error={deliveries.error} what="deliveries" />
      ) : deliveries.data.total === 0 ? (
        <p className="empty">
          {search.status
            ? 'No delivery has this status.'
            : 'Nothing delivered yet: Ping sends a test event, and every event it subscribes to lands here.'}
        </p>
      ) : (
        <>
          <table>
            <thead>
              <tr>
                <th scope="col">Event</th>
                <th scope="col">Status</th>
                <th scope="col">Response</th>
                <th scope="col">Attempts</th>
                <th scope="col">Time</th>
                <th scope="col">
                  <span className="visually-hidden">Redeliver</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {deliveries.data.items.map((d) => (
                <tr key={d.id} data-status={d.status}>
                  <td>
                    <code>{d.event_type}</code>
                  </td>
                  <td>
                    <span className={`status status-${d.status === 'delivered' ? 'completed' : d.status}`}>
                      {d.status}
                    </span>
                    {d.error && <div className="error">{d.error.message}</div>}
                  </td>
                  <td>
                    <Response delivery={d} />
                  </td>
                  <td>
                    <Attempts delivery={d} />
                  </td>
                  <td>
                    {dateTime(d.created_at)}
                    {d.delivered_at && <div className="muted">delivered {dateTime(d.delivered_at)}</div>}
                    {d.status === 'pending' && d.next_attempt_at && (
                      <div className="muted">next try {dateTime(d.next_attempt_at)}</div>
                    )}
                  </td>
                  <td>
                    <button
                      type="button"
                      aria-label={`Redeliver ${d.event_type} of ${dateTime(d.created_at)}`}
                      disabled={UNDER_WAY.includes(d.status) || !endpoint.enabled || redeliver.isPending}
                      onClick={() => redeliver.mutate(d)}
                    >
                      Redeliver
                    </button>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
          <Pager
            page={deliveries.data.page}
            pageSize={PAGE_SIZE}
            total={deliveries.data.total}
            to={(page) => ({
              to: '/settings/webhooks/$endpointId',
              params: { endpointId: endpoint.id },
              search: { ...search, page },
            })}
          />
        </>
      )}
    </>
  );
};

/** The last attempt's answer: its HTTP status, or why none came. */
const Response = ({ delivery }: { delivery: WebhookDelivery }) => {
  const last = delivery.attempts.at(-1);
  if (!last) return <span className="muted">not tried yet</span>;
  return (
    <>
      {last.status_code !== null ? `HTTP ${last.status_code}` : (last.error_code ?? '–')}{' '}
      <span className="muted">{milliseconds(last.latency_ms)}</span>
    </>
  );
};

const Attempts = ({ delivery }: { delivery: WebhookDelivery }) =>
  delivery.attempts.length === 0 ? (
    <span className="muted">0</span>
  ) : (
    <details>
      <summary>{count(delivery.attempts.length, 'attempt')}</summary>
      <ol className="attempts">
        {delivery.attempts.map((a) => (
          <li key={a.attempt}>
            {dateTime(a.attempted_at)}: {a.status_code !== null ? `HTTP ${a.status_code}` : a.error_code}
            {a.error_message && <span className="error"> {a.error_message}</span>}
            {a.response_body && <div className="muted text">{a.response_body.slice(0, 200)}</div>}
          </li>
        ))}
      </ol>
    </details>
  );
