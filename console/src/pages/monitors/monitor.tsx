import { useQueries, useQuery } from '@tanstack/react-query';
import { getRouteApi, Link } from '@tanstack/react-router';
import type { Monitor } from '@voice-eval/contract';
import { AgentName } from '../../components/agent-names.tsx';
import { Loading, ProblemView } from '../../components/problem.tsx';
import { useClient } from '../../components/session-context.tsx';
import { dateTime } from '../../format.ts';
import { EvaluationStatus } from '../evaluations/evaluations.tsx';
import { Alerts } from './alerts.tsx';
import { Rules } from './monitors.tsx';
import { MonitorState, PauseButton } from './pause.tsx';
import { percent } from './rules.ts';

const route = getRouteApi('/app/monitors/$monitorId');

/** One monitor: what it scores and how, its evaluation, and its alert history. */
export const MonitorPage = () => {
  const client = useClient();
  const { monitorId } = route.useParams();
  const search = route.useSearch();
  const monitor = useQuery({
    queryKey: ['monitor', monitorId],
    queryFn: () => client.monitors.get(monitorId),
    refetchInterval: 10_000,
  });
  const evaluationId = monitor.data?.evaluation_id ?? null;
  const evaluation = useQuery({
    queryKey: ['evaluation', evaluationId],
    queryFn: () => client.evaluations.get(evaluationId!),
    enabled: evaluationId !== null,
  });

  if (monitor.isPending) return <Loading what="monitor" />;
  if (monitor.isError) return <ProblemView error={monitor.error} what="monitor" />;
  const m = monitor.data;
  return (
    <section>
      <div className="page-head">
        <h1>{m.name}</h1>
        <MonitorState monitor={m} />
        <PauseButton monitor={m} />
      </div>
      <dl className="facts">
        <div>
          <dt>Agent</dt>
          <dd>
            <Link to="/production-calls" search={{ agent: m.agent_id }}>
              <AgentName id={m.agent_id} />
            </Link>
          </dd>
        </div>
        <div>
          <dt>Sampled</dt>
          <dd>{percent(m.sample_rate)} of calls</dd>
        </div>
        <div>
          <dt>Calls seen / judged</dt>
          <dd>
            {m.calls_seen} / {m.calls_sampled}
          </dd>
        </div>
        <div>
          <dt>Slack</dt>
          <dd>{m.slack_configured ? 'alerts posted' : <span className="muted">not set</span>}</dd>
        </div>
        <div>
          <dt>Since</dt>
          <dd>{dateTime(m.created_at)}</dd>
        </div>
      </dl>
      <h2>Metrics</h2>
      <MetricNames monitor={m} />
      <h2>Alerts when</h2>
      <Rules monitor={m} />
      <h2>Scores</h2>
      {evaluationId === null ? (
        <p className="muted">No evaluation yet: it starts with the first call.</p>
      ) : (
        <p>
          <Link to="/evaluations/$evaluationId" params={{ evaluationId }}>
            The monitor’s evaluation
          </Link>{' '}
          {evaluation.data && <EvaluationStatus evaluation={evaluation.data} />}{' '}
          <span className="muted">every call it saw, with what each was flagged on</span>
        </p>
      )}
      <Alerts monitor={m} importId={evaluation.data?.call_import_id} page={search.page ?? 1} key={m.id} />
    </section>
  );
};

/** The names of the metrics a monitor scores with, each opening its metric. */
const MetricNames = ({ monitor }: { monitor: Monitor }) => {
  const client = useClient();
  const metrics = useQueries({
    queries: monitor.metric_ids.map((id) => ({
      queryKey: ['metric', id],
      queryFn: () => client.metrics.get(id),
      staleTime: 60_000,
    })),
  });
  return (
    <ul className="inline-list">
      {monitor.metric_ids.map((id, i) => (
        <li key={id}>
          <Link to="/metrics/$metricId" params={{ metricId: id }}>
            {metrics[i]?.data?.name ?? id.slice(0, 8)}
          </Link>
        </li>
      ))}
    </ul>
  );
};
