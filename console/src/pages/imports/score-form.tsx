import { useMutation, useQuery } from '@tanstack/react-query';
import { useNavigate } from '@tanstack/react-router';
import { useState } from 'react';
import { ProblemView } from '../../components/problem.tsx';
import { useClient } from '../../components/session-context.tsx';

/** Scores the picked calls with the metrics ticked, then opens the new evaluation. */
export const EvaluateForm = ({ importId, rowIds }: { importId: string; rowIds: string[] }) => {
  const client = useClient();
  const navigate = useNavigate();
  const metrics = useQuery({
    queryKey: ['metrics', 'active'],
    queryFn: () => client.metrics.list({ lifecycle: 'active', page_size: 100 }),
  });
  const evaluate = useMutation({
    mutationFn: (metricIds: string[]) =>
      client.evaluations.create({ call_import_id: importId, metric_ids: metricIds, row_ids: rowIds }),
    onSuccess: (evaluation) =>
      navigate({ to: '/evaluations/$evaluationId', params: { evaluationId: evaluation.id } }),
  });
  const [picked, setPicked] = useState<Set<string>>(new Set());
  const toggle = (metricId: string) => {
    const next = new Set(picked);
    if (next.has(metricId)) next.delete(metricId);
    else next.add(metricId);
    setPicked(next);
  };
  return (
    <form
      className="panel-form"
      onSubmit={(e) => {
        e.preventDefault();
        evaluate.mutate([...picked]);
      }}
    >
      <fieldset>
        <legend>Metrics to score</legend>
        {metrics.isError && <ProblemView error={metrics.error} what="metrics" />}
        {metrics.data?.items.length === 0 && <p className="muted">No active metric yet.</p>}
        {metrics.data?.items
          .filter((m) => m.parent_metric_id === null)
          .map((m) => (
            <label key={m.id}>
              <input type="checkbox" checked={picked.has(m.id)} onChange={() => toggle(m.id)} /> {m.name}
              {m.children.length > 0 && <span className="muted"> ({m.children.length} sub-metrics)</span>}
            </label>
          ))}
      </fieldset>
      <button type="submit" disabled={picked.size === 0 || evaluate.isPending}>
        Score {rowIds.length} calls with {picked.size} metrics
      </button>
      {evaluate.isError && <ProblemView error={evaluate.error} what="evaluation" />}
    </form>
  );
};
