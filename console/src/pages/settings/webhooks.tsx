import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { getRouteApi, Link } from '@tanstack/react-router';
import { useState } from 'react';
import { Pager } from '../../components/pager.tsx';
import { Loading, ProblemView } from '../../components/problem.tsx';
import { useClient } from '../../components/session-context.tsx';
import { AdminOnly, SettingsFrame } from './frame.tsx';
import { ShownOnce } from './parts.tsx';
import { EndpointActions, EndpointState, type Outcome } from './webhook-actions.tsx';
import { CreateEndpoint } from './webhook-form.tsx';

const route = getRouteApi('/app/settings/webhooks');
const PAGE_SIZE = 25;

/** The organization's webhook endpoints: add one (its secret shown once), ping, disable, rotate, delete. */
export const WebhooksPage = () => (
  <SettingsFrame title="Webhooks">
    <p className="muted">
      Events are POSTed to these URLs as they happen, signed with each endpoint’s secret (Standard Webhooks);
      failed deliveries are retried, and every attempt is in the endpoint’s log.
    </p>
    <AdminOnly what="webhooks">
      <Webhooks />
    </AdminOnly>
  </SettingsFrame>
);

const Webhooks = () => {
  const client = useClient();
  const search = route.useSearch();
  const [adding, setAdding] = useState(false);
  const [secret, setSecret] = useState<string | null>(null);
  const [outcome, setOutcome] = useState<Outcome>({ text: '' });
  const endpoints = useQuery({
    queryKey: ['webhook-endpoints', search.page ?? 1],
    queryFn: () => client.webhookEndpoints.list({ page: search.page ?? 1, page_size: PAGE_SIZE }),
    placeholderData: keepPreviousData,
  });
  return (
    <>
      <button
        type="button"
        aria-expanded={adding}
        aria-controls="new-endpoint"
        onClick={() => setAdding(!adding)}
      >
        Add an endpoint
      </button>
      <div id="new-endpoint">
        {adding && (
          <CreateEndpoint
            onCreated={(created) => {
              setAdding(false);
              setSecret(created.secret);
              setOutcome({ text: `Endpoint ${created.url} created.` });
            }}
          />
        )}
      </div>
      <ShownOnce what="The endpoint’s signing secret" value={secret} onDone={() => setSecret(null)} />
      <p>
        <output className={outcome.bad ? 'bad' : 'good'}>{outcome.text}</output>
      </p>
      {endpoints.isPending ? (
        <Loading what="webhook endpoints" />
      ) : endpoints.isError ? (
        <ProblemView error={endpoints.error} what="webhook endpoints" />
      ) : endpoints.data.total === 0 ? (
        <div className="empty">
          <h2>No webhook endpoints yet</h2>
          <p>
            Add one (above) to hear when a suite run or an evaluation finishes; Ping sends it a test event.
          </p>
        </div>
      ) : (
        <>
          <table>
            <thead>
              <tr>
                <th scope="col">Endpoint</th>
                <th scope="col">Events</th>
                <th scope="col">State</th>
                <th scope="col">Secret</th>
                <th scope="col">
                  <span className="visually-hidden">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {endpoints.data.items.map((e) => (
                <tr key={e.id}>
                  <td className="url">
                    <Link to="/settings/webhooks/$endpointId" params={{ endpointId: e.id }}>
                      {e.url}
                    </Link>
                    {e.description && <div className="muted">{e.description}</div>}
                  </td>
                  <td>{e.events.join(', ')}</td>
                  <td>
                    <EndpointState endpoint={e} />
                  </td>
                  <td>
                    <code>…{e.secret_hint}</code>
                  </td>
                  <td>
                    <EndpointActions endpoint={e} onOutcome={setOutcome} onSecret={setSecret} />
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
          <Pager
            page={endpoints.data.page}
            pageSize={PAGE_SIZE}
            total={endpoints.data.total}
            to={(page) => ({ to: '/settings/webhooks', search: { page } })}
          />
        </>
      )}
    </>
  );
};
