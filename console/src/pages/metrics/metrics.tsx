import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { getRouteApi, Link, useNavigate } from '@tanstack/react-router';
import type { Metric } from '@voice-eval/contract';
import { Fragment, useState } from 'react';
import { SearchBox } from '../../components/filters.tsx';
import { Pager } from '../../components/pager.tsx';
import { Loading, ProblemView } from '../../components/problem.tsx';
import { useCanWrite, useClient } from '../../components/session-context.tsx';
import { count, dateTime } from '../../format.ts';
import { EmptyMetrics } from './empty.tsx';
import { flaggedWhen, type Policies, PolicySource, useFailurePolicies } from './policy.tsx';
import { PromoteButton } from './promote.tsx';
import { RubricForm } from './rubric.tsx';

const route = getRouteApi('/app/metrics');
const PAGE_SIZE = 25;

/**
 * The workspace's metrics, active or drafts: parents with their sub-metrics under them, each
 * metric's type and when it flags a call; drafts can be promoted, and a pasted rubric becomes drafts.
 */
export const MetricsPage = () => {
  const client = useClient();
  const search = route.useSearch();
  const navigate = useNavigate();
  const canWrite = useCanWrite();
  const [pasting, setPasting] = useState(false);
  const [outcome, setOutcome] = useState('');
  const [problem, setProblem] = useState<unknown>(null);
  const lifecycle = search.lifecycle ?? 'active';
  const metrics = useQuery({
    queryKey: ['metrics', 'list', lifecycle, search.q, search.page ?? 1],
    queryFn: () =>
      client.metrics.list({ lifecycle, q: search.q, page: search.page ?? 1, page_size: PAGE_SIZE }),
    placeholderData: keepPreviousData,
  });
  const policies = useFailurePolicies();
  const filter = (next: Partial<typeof search>) =>
    void navigate({ to: '/metrics', search: { ...search, ...next, page: undefined } });

  return (
    <section>
      <div className="page-head">
        <h1>Metrics</h1>
        <label>
          Show{' '}
          <select
            value={lifecycle}
            onChange={(e) => filter({ lifecycle: e.target.value === 'draft' ? 'draft' : undefined })}
          >
            <option value="active">active metrics</option>
            <option value="draft">drafts</option>
          </select>
        </label>
        <SearchBox label="Name" value={search.q} onSearch={(q) => filter({ q })} />
        {canWrite && (
          <button
            type="button"
            aria-expanded={pasting}
            aria-controls="rubric"
            onClick={() => setPasting(!pasting)}
          >
            Paste a rubric
          </button>
        )}
      </div>
      {pasting && canWrite && (
        <RubricForm
          id="rubric"
          onCreated={(made) => {
            setPasting(false);
            setOutcome(`${count(made.length, 'draft')} created: promote them when they are ready.`);
            filter({ lifecycle: 'draft', q: undefined });
          }}
        />
      )}
      <output className="good">{outcome}</output>
      {problem !== null && <ProblemView error={problem} what="promotion" />}
      {metrics.isPending ? (
        <Loading what="metrics" />
      ) : metrics.isError ? (
        <ProblemView error={metrics.error} what="metrics" />
      ) : metrics.data.total === 0 ? (
        <EmptyMetrics q={search.q} drafts={lifecycle === 'draft'} canWrite={canWrite} />
      ) : (
        <>
          <table>
            <thead>
              <tr>
                <th scope="col">Metric</th>
                <th scope="col">Type</th>
                <th scope="col">Flagged when</th>
                <th scope="col">Scope</th>
                <th scope="col">Created</th>
                {lifecycle === 'draft' && canWrite && (
                  <th scope="col">
                    <span className="visually-hidden">Actions</span>
                  </th>
                )}
              </tr>
            </thead>
            <tbody>
              {metrics.data.items.map((metric) => (
                <Fragment key={metric.id}>
                  <MetricRow
                    metric={metric}
                    policies={policies.data}
                    actions={lifecycle === 'draft' && canWrite}
                    onPromoted={(m) => {
                      setProblem(null);
                      setOutcome(`“${m.name}” promoted: evaluations can score it now.`);
                    }}
                    onError={setProblem}
                  />
                  {metric.children.map((child) => (
                    <MetricRow
                      key={child.id}
                      metric={child}
                      parent={metric}
                      policies={policies.data}
                      actions={lifecycle === 'draft' && canWrite}
                    />
                  ))}
                </Fragment>
              ))}
            </tbody>
          </table>
          <PolicySource policies={policies.data} />
          <Pager
            page={metrics.data.page}
            pageSize={PAGE_SIZE}
            total={metrics.data.total}
            to={(page) => ({ to: '/metrics', search: { ...search, page } })}
          />
        </>
      )}
    </section>
  );
};

const MetricRow = ({
  metric,
  parent,
  policies,
  actions,
  onPromoted = () => {},
  onError = () => {},
}: {
  metric: Metric;
  parent?: Metric;
  policies: Policies | undefined;
  actions: boolean;
  onPromoted?: (metric: Metric) => void;
  onError?: (error: unknown) => void;
}) => (
  <tr className={parent ? 'child' : undefined}>
    <td>
      {parent && <span aria-hidden="true">↳ </span>}
      <Link to="/metrics/$metricId" params={{ metricId: metric.id }}>
        {metric.name}
      </Link>
      {parent && <span className="visually-hidden"> (under {parent.name})</span>}
      {metric.lifecycle === 'draft' && <span className="badge warn">draft</span>}
      {!metric.enabled && <span className="badge">disabled</span>}
    </td>
    <td>
      {metric.metric_type}
      {metric.selection_mode && (
        <span className="muted">
          {' '}
          · {metric.selection_mode.replace('_', '-')}, {count(metric.children.length, 'sub-metric')}
        </span>
      )}
    </td>
    <td>{flaggedWhen(metric, policies, parent)}</td>
    <td>{parent ? <span className="muted">as its parent</span> : metric.scope}</td>
    <td>{dateTime(metric.created_at)}</td>
    {actions && (
      <td>
        <PromoteButton metric={metric} onPromoted={onPromoted} onError={onError} />
      </td>
    )}
  </tr>
);
