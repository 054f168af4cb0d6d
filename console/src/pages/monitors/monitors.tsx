import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { getRouteApi, Link, useNavigate } from '@tanstack/react-router';
import type { Monitor } from '@voice-eval/contract';
import { AgentFilter, AgentName } from '../../components/agent-names.tsx';
import { Pager } from '../../components/pager.tsx';
import { Loading, ProblemView } from '../../components/problem.tsx';
import { useClient } from '../../components/session-context.tsx';
import { dateTime } from '../../format.ts';
import { MonitorState, PauseButton } from './pause.tsx';
import { percent, ruleDetails, ruleInWords } from './rules.ts';

const route = getRouteApi('/app/monitors');
const PAGE_SIZE = 25;

/** The workspace's monitors: whose calls each scores, how many, when it alerts, and its last alert. */
export const MonitorsPage = () => {
  const client = useClient();
  const search = route.useSearch();
  const navigate = useNavigate();
  const monitors = useQuery({
    queryKey: ['monitors', search.agent, search.page ?? 1],
    queryFn: () =>
      client.monitors.list({ agent_id: search.agent, page: search.page ?? 1, page_size: PAGE_SIZE }),
    placeholderData: keepPreviousData,
    // calls keep arriving: the counts follow
    refetchInterval: 10_000,
  });
  return (
    <section>
      <div className="page-head">
        <h1>Monitors</h1>
        <AgentFilter
          value={search.agent}
          onChange={(agent) => void navigate({ to: '/monitors', search: { agent } })}
        />
        <Link to="/production-calls" search={{ agent: search.agent }}>
          Production calls
        </Link>
      </div>
      {monitors.isPending ? (
        <Loading what="monitors" />
      ) : monitors.isError ? (
        <ProblemView error={monitors.error} what="monitors" />
      ) : monitors.data.total === 0 ? (
        search.agent ? (
          <p className="empty">This agent has no monitor.</p>
        ) : (
          <div className="empty">
            <h2>No monitors yet</h2>
            <p>
              A monitor scores an agent's production calls as they arrive, with the metrics you choose, and
              raises alerts when they fail. Create one with the SDK:
            </p>
            <pre>
              <code>{`await client.monitors.create({
  agent_id: agent.id,
  name: 'Order status line',
  metric_ids: [resolved.id],
  sample_rate: 0.3,
  rules: [{ type: 'failure_count', failures: 3, of_last: 10 }],
});`}</code>
            </pre>
          </div>
        )
      ) : (
        <>
          <table>
            <thead>
              <tr>
                <th scope="col">Monitor</th>
                <th scope="col">Agent</th>
                <th scope="col">Sampled</th>
                <th scope="col">Calls seen / judged</th>
                <th scope="col">Alerts when</th>
                <th scope="col">State</th>
                <th scope="col">Last alert</th>
              </tr>
            </thead>
            <tbody>
              {monitors.data.items.map((m) => (
                <tr key={m.id}>
                  <td>
                    <Link to="/monitors/$monitorId" params={{ monitorId: m.id }}>
                      {m.name}
                    </Link>
                  </td>
                  <td>
                    <AgentName id={m.agent_id} />
                  </td>
                  <td className="num">{percent(m.sample_rate)}</td>
                  <td className="num">
                    {m.calls_seen} / {m.calls_sampled}
                  </td>
                  <td>
                    <Rules monitor={m} />
                  </td>
                  <td>
                    <div className="actions">
                      <MonitorState monitor={m} />
                      <PauseButton monitor={m} />
                    </div>
                  </td>
                  <td>
                    <LastAlert monitor={m} />
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
          <Pager
            page={monitors.data.page}
            pageSize={PAGE_SIZE}
            total={monitors.data.total}
            to={(page) => ({ to: '/monitors', search: { ...search, page } })}
          />
        </>
      )}
    </section>
  );
};

/** A monitor's rules, one a line, each with its conditions and cooldown on hover. */
export const Rules = ({ monitor }: { monitor: Monitor }) =>
  monitor.rules.length === 0 ? (
    <span className="muted">no rule: scores only</span>
  ) : (
    <ul className="rules">
      {monitor.rules.map((rule) => (
        <li key={rule.id} title={ruleDetails(rule)}>
          {ruleInWords(rule)}
        </li>
      ))}
    </ul>
  );

/** The newest alert of a monitor: when, with its sentence on hover. */
const LastAlert = ({ monitor }: { monitor: Monitor }) => {
  const client = useClient();
  const alerts = useQuery({
    queryKey: ['monitor-alerts', monitor.id, 'last', monitor.calls_seen],
    queryFn: () => client.monitors.alerts(monitor.id, { page_size: 1 }),
  });
  if (alerts.isPending) return <span className="muted">…</span>;
  if (alerts.isError) return <span className="error">could not load</span>;
  const last = alerts.data.items[0];
  if (last === undefined) return <span className="muted">none</span>;
  return (
    <Link to="/monitors/$monitorId" params={{ monitorId: monitor.id }} title={last.summary}>
      {dateTime(last.fired_at)}
    </Link>
  );
};
