import { useQuery } from '@tanstack/react-query';
import { getRouteApi, Link } from '@tanstack/react-router';
import type { Metric } from '@voice-eval/contract';
import { type ReactNode, useState } from 'react';
import { Loading, ProblemView } from '../../components/problem.tsx';
import { useClient } from '../../components/session-context.tsx';
import { dateTime } from '../../format.ts';
import { Consistency } from './consistency.tsx';
import { flaggedWhen, PolicySource, useFailurePolicies } from './policy.tsx';
import { PromoteButton } from './promote.tsx';
import { Reliability } from './reliability.tsx';

const route = getRouteApi('/app/metrics/$metricId');

/** One metric: what it scores and how (description, examples, type, configuration), and its children. */
export const MetricPage = () => {
  const client = useClient();
  const { metricId } = route.useParams();
  const [outcome, setOutcome] = useState('');
  const [problem, setProblem] = useState<unknown>(null);
  const metric = useQuery({ queryKey: ['metric', metricId], queryFn: () => client.metrics.get(metricId) });
  const parentId = metric.data?.parent_metric_id ?? null;
  const parent = useQuery({
    queryKey: ['metric', parentId],
    queryFn: () => client.metrics.get(parentId!),
    enabled: parentId !== null,
  });
  const policies = useFailurePolicies();
  if (metric.isPending) return <Loading what="metric" />;
  if (metric.isError) return <ProblemView error={metric.error} what="metric" />;
  const m = metric.data;
  return (
    <section>
      <div className="page-head">
        <h1>
          {m.name}
          {m.lifecycle === 'draft' && <span className="badge warn">draft</span>}
        </h1>
        <PromoteButton
          metric={m}
          onPromoted={(promoted) => {
            setProblem(null);
            setOutcome(`Promoted: evaluations can score “${promoted.name}” now.`);
          }}
          onError={setProblem}
        />
        <output className="good">{outcome}</output>
      </div>
      {problem !== null && <ProblemView error={problem} what="promotion" />}
      {parentId && (
        <p>
          A sub-metric of{' '}
          <Link to="/metrics/$metricId" params={{ metricId: parentId }}>
            {parent.data?.name ?? 'its parent category'}
          </Link>
          : a call is scored on whether this label applies.
        </p>
      )}
      <dl className="facts">
        <Fact term="Type">
          {m.metric_type}
          {m.custom_data_type !== m.metric_type && <span className="muted"> ({m.custom_data_type})</span>}
        </Fact>
        {m.selection_mode && (
          <Fact term="A call has">{m.selection_mode === 'multi_label' ? 'several labels' : 'one label'}</Fact>
        )}
        <Fact term="Flagged when">
          {parentId && !parent.data ? '…' : flaggedWhen(m, policies.data, parent.data)}
        </Fact>
        <Fact term="Version">v{m.version}</Fact>
        <Fact term="Scope">{m.scope}</Fact>
        <Fact term="Category · trigger">
          {m.metric_category} · {m.trigger}
        </Fact>
        <Fact term="Rationale">{m.capture_rationale ? 'asked for' : 'not asked for'}</Fact>
        <Fact term="Tags">{m.tags.length > 0 ? m.tags.join(', ') : '–'}</Fact>
        <Fact term="Origin">{m.metric_origin}</Fact>
        <Fact term="Created">
          {dateTime(m.created_at)} <span className="muted">by {m.created_by}</span>
        </Fact>
        {m.promoted_from_draft_at && <Fact term="Promoted">{dateTime(m.promoted_from_draft_at)}</Fact>}
      </dl>
      <h2>Description</h2>
      {m.description ? <p className="text">{m.description}</p> : <p className="muted">No description.</p>}
      <h2>Examples</h2>
      {m.example ? <p className="text">{m.example}</p> : <p className="muted">No examples.</p>}
      {m.studio_notes && (
        <>
          <h2>Notes</h2>
          <p className="text">{m.studio_notes}</p>
        </>
      )}
      <h2>Configuration</h2>
      {Object.keys(m.custom_config).length > 0 ? (
        <pre className="config">
          <code>{JSON.stringify(m.custom_config, null, 2)}</code>
        </pre>
      ) : (
        <p className="muted">No configuration beyond the type.</p>
      )}
      {(m.selection_mode || m.children.length > 0) && <Children metric={m} />}
      <PolicySource policies={m.lifecycle === 'active' ? policies.data : undefined} />
      {!parentId && <Reliability key={m.id} metric={m} />}
      {!parentId && m.lifecycle === 'active' && <Consistency key={`consistency-${m.id}`} metric={m} />}
    </section>
  );
};

const Fact = ({ term, children }: { term: string; children: ReactNode }) => (
  <div>
    <dt>{term}</dt>
    <dd>{children}</dd>
  </div>
);

const Children = ({ metric }: { metric: Metric }) => {
  const policies = useFailurePolicies();
  return (
    <>
      <h2>Sub-metrics</h2>
      {metric.children.length === 0 ? (
        <p className="empty">
          No sub-metrics yet: add one with <code>client.metrics.create</code> (or <code>createDraft</code>{' '}
          while this is a draft) and <code>parent_metric_id</code> set to this metric.
        </p>
      ) : (
        <table>
          <thead>
            <tr>
              <th scope="col">Sub-metric</th>
              <th scope="col">Description</th>
              <th scope="col">Flagged when</th>
            </tr>
          </thead>
          <tbody>
            {metric.children.map((child) => (
              <tr key={child.id}>
                <td>
                  <Link to="/metrics/$metricId" params={{ metricId: child.id }}>
                    {child.name}
                  </Link>
                </td>
                <td className="text">{child.description || <span className="muted">none</span>}</td>
                <td>{flaggedWhen(child, policies.data, metric)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </>
  );
};
