import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { Metric, MetricClustersReport } from '@voice-eval/contract';

type DiscoveredProblem = MetricClustersReport['discovered_problems'][number];

import { useState } from 'react';
import { ProblemView } from '../components/problem.tsx';
import { useCanWrite, useClient } from '../components/session-context.tsx';

const TYPES = ['boolean', 'rating', 'category'] as const;

/**
 * Problems the judge found that no metric covers, each with its evidence and a form that makes
 * it a metric: the calls already scored under its key then count under the new metric.
 */
export const DiscoveredProblems = ({
  problems,
  renderEvidence,
}: {
  problems: DiscoveredProblem[];
  renderEvidence: (problem: DiscoveredProblem) => React.ReactNode;
}) => {
  if (problems.length === 0) return null;
  return (
    <article className="cluster-group">
      <h2>Problems no metric covers</h2>
      {problems.map((problem) => (
        <section key={problem.id} className="cluster">
          <h3>
            {problem.label}{' '}
            <span className="badge">{problem.gap_label.replace('_GAP', '').toLowerCase()}</span>{' '}
            <span className="muted">
              {problem.count} calls · {problem.share_pct.toFixed(0)}%
            </span>
          </h3>
          <p>{problem.observation}</p>
          {renderEvidence(problem)}
          <Promote problem={problem} />
        </section>
      ))}
    </article>
  );
};

const Promote = ({ problem }: { problem: DiscoveredProblem }) => {
  const client = useClient();
  const queryClient = useQueryClient();
  const canWrite = useCanWrite();
  const [name, setName] = useState(problem.label);
  const [type, setType] = useState<(typeof TYPES)[number]>('boolean');
  const promote = useMutation({
    mutationFn: () => client.metrics.fromDiscovered({ key: problem.key, name, metric_type: type }),
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: ['metrics'] }),
  });
  if (!canWrite) return null;
  if (promote.isSuccess) return <Promoted metric={promote.data} />;
  return (
    <form
      className="inline-form"
      aria-label={`Make “${problem.label}” a metric`}
      onSubmit={(e) => {
        e.preventDefault();
        promote.mutate();
      }}
    >
      <label>
        Metric name <input value={name} onChange={(e) => setName(e.target.value)} required maxLength={200} />
      </label>
      <label>
        Type{' '}
        <select value={type} onChange={(e) => setType(e.target.value as typeof type)}>
          {TYPES.map((t) => (
            <option key={t}>{t}</option>
          ))}
        </select>
      </label>
      <button type="submit" disabled={promote.isPending}>
        Make it a metric
      </button>
      <span className="muted">
        The metric keeps the key <code>{problem.key}</code> (a name that does not match it is replaced by one
        made from it), so the calls already scored count under it.
      </span>
      {promote.isError && <ProblemView error={promote.error} what="metric" />}
    </form>
  );
};

const Promoted = ({ metric }: { metric: Metric }) => (
  <output className="good">
    Metric “{metric.name}” created: the next evaluations score it, and the calls already scored count under
    it.
  </output>
);
