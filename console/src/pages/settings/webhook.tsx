import { useQuery } from '@tanstack/react-query';
import { getRouteApi, Link, useNavigate } from '@tanstack/react-router';
import { useState } from 'react';
import { Loading, ProblemView } from '../../components/problem.tsx';
import { useClient } from '../../components/session-context.tsx';
import { dateTime } from '../../format.ts';
import { Deliveries } from './deliveries.tsx';
import { AdminOnly, SettingsFrame } from './frame.tsx';
import { ShownOnce } from './parts.tsx';
import { EndpointActions, EndpointState, type Outcome } from './webhook-actions.tsx';

const route = getRouteApi('/app/settings/webhooks/$endpointId');

/** One webhook endpoint: what it receives, its actions, and its delivery log. */
export const WebhookPage = () => (
  <SettingsFrame title="Webhook endpoint">
    <AdminOnly what="webhooks">
      <Endpoint />
    </AdminOnly>
  </SettingsFrame>
);

const Endpoint = () => {
  const client = useClient();
  const navigate = useNavigate();
  const { endpointId } = route.useParams();
  const [secret, setSecret] = useState<string | null>(null);
  const [outcome, setOutcome] = useState<Outcome>({ text: '' });
  const endpoint = useQuery({
    queryKey: ['webhook-endpoint', endpointId],
    queryFn: () => client.webhookEndpoints.get(endpointId),
  });
  if (endpoint.isPending) return <Loading what="webhook endpoint" />;
  if (endpoint.isError) return <ProblemView error={endpoint.error} what="webhook endpoint" />;
  const e = endpoint.data;
  return (
    <>
      <p className="url">
        <code>{e.url}</code> {e.description && <span className="muted">{e.description}</span>}
      </p>
      <dl className="facts">
        <div>
          <dt>State</dt>
          <dd>
            <EndpointState endpoint={e} />
          </dd>
        </div>
        <div>
          <dt>Events</dt>
          <dd>{e.events.join(', ')}</dd>
        </div>
        <div>
          <dt>Secret ends with</dt>
          <dd>
            <code>{e.secret_hint}</code>
          </dd>
        </div>
        <div>
          <dt>Created</dt>
          <dd>{dateTime(e.created_at)}</dd>
        </div>
      </dl>
      <EndpointActions
        endpoint={e}
        onOutcome={setOutcome}
        onSecret={setSecret}
        onDeleted={() => void navigate({ to: '/settings/webhooks' })}
      />
      <ShownOnce what="The new signing secret" value={secret} onDone={() => setSecret(null)} />
      <p>
        <output className={outcome.bad ? 'bad' : 'good'}>{outcome.text}</output>
      </p>
      <Deliveries endpoint={e} />
      <p>
        <Link to="/settings/webhooks">All webhook endpoints</Link>
      </p>
    </>
  );
};
