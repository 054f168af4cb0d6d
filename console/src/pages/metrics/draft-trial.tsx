import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { Evaluation, Metric, MetricVersion } from '@voice-eval/contract';
import { useEffect } from 'react';
import { Loading, ProblemView } from '../../components/problem.tsx';
import { useCanWrite, useClient } from '../../components/session-context.tsx';
import { count } from '../../format.ts';
import { PairedComparison } from './paired.tsx';

const DONE: ReadonlyArray<Evaluation['status']> = ['completed', 'failed', 'cancelled'];
const finished = (e: Evaluation) => DONE.includes(e.status);

/**
 * One draft version on trial: scored on the calls people labelled (the evaluations followed until
 * they are done), then set beside the version it was drafted from on the same calls, and promoted.
 * Roles that may not write see the comparison only.
 */
export const DraftTrial = ({
  metric,
  draft,
  onPromoted,
}: {
  metric: Metric;
  draft: MetricVersion;
  onPromoted: (metric: Metric) => void;
}) => {
  const client = useClient();
  const queryClient = useQueryClient();
  const canWrite = useCanWrite();
  const { id } = metric;
  const { version } = draft;
  const base = draft.based_on ?? metric.version;
  const agreement = useQuery({
    queryKey: ['metric', id, 'agreement', version, 'beside', base],
    queryFn: () => client.metrics.agreement(id, { version, baseline_version: base }),
  });
  const score = useMutation({ mutationFn: () => client.metrics.scoreVersion(id, version) });
  const started = score.data?.evaluations ?? [];
  const scoring = useQuery({
    queryKey: ['metric', id, 'scoring', version, started.map((e) => e.id)],
    queryFn: () => Promise.all(started.map((e) => client.evaluations.get(e.id))),
    initialData: started,
    enabled: started.length > 0,
    refetchInterval: (query) => (query.state.data?.every(finished) ? false : 1000),
  });
  const evaluations = scoring.data ?? started;
  const allDone = started.length > 0 && evaluations.every(finished);
  useEffect(() => {
    if (allDone) void queryClient.invalidateQueries({ queryKey: ['metric', id, 'agreement', version] });
  }, [allDone, queryClient, id, version]);
  const promote = useMutation({
    mutationFn: () => client.metrics.promoteVersion(id, version),
    onSuccess: (promoted) => {
      queryClient.setQueryData(['metric', id], promoted);
      void queryClient.invalidateQueries({ queryKey: ['metric', id, 'versions'] });
      void queryClient.invalidateQueries({ queryKey: ['metrics'] });
      onPromoted(promoted);
    },
  });
  const total = evaluations.reduce((n, e) => n + e.total_rows, 0);
  const done = evaluations.reduce((n, e) => n + e.completed_rows + e.failed_rows + e.cancelled_rows, 0);
  const failed = evaluations.reduce((n, e) => n + e.failed_rows + e.cancelled_rows, 0);
  const busy = score.isPending || (started.length > 0 && !allDone);
  return (
    <article className="draft-trial" aria-labelledby={`draft-${version}`}>
      <h3 id={`draft-${version}`}>
        Version {version} <span className="badge warn">draft</span>{' '}
        <span className="muted">drafted from v{base}</span>
      </h3>
      <p className="text">{draft.definition.description || <span className="muted">No description.</span>}</p>
      {canWrite && (
        <div className="actions">
          <button type="button" onClick={() => score.mutate()} disabled={busy}>
            Score on labelled calls
          </button>
          <button type="button" onClick={() => promote.mutate()} disabled={promote.isPending || busy}>
            Promote version {version}
          </button>
        </div>
      )}
      {score.data && (
        <output className="scoring">
          {score.data.evaluations.length === 0
            ? `All ${count(score.data.labelled, 'labelled call')} already have v${version}'s score.`
            : allDone
              ? `Scored ${count(total - failed, 'call')} with v${version}${failed > 0 ? `; ${failed} could not be scored` : ''}.`
              : `Scoring v${version} on ${count(total, 'labelled call')}: ${done} done.`}
          {!allDone && started.length > 0 && (
            <progress value={done} max={total} aria-label={`Scoring version ${version}`} />
          )}
        </output>
      )}
      {score.isError && <ProblemView error={score.error} what="scoring" />}
      {promote.isError && <ProblemView error={promote.error} what="promotion" />}
      {agreement.isPending ? (
        <Loading what="comparison" />
      ) : agreement.isError ? (
        <ProblemView error={agreement.error} what="comparison" />
      ) : agreement.data.paired === null || agreement.data.paired.n === 0 ? (
        <p className="empty">
          No labelled call has both versions' scores yet
          {canWrite
            ? `: score version ${version} on the labelled calls to set it beside version ${base}.`
            : '.'}
        </p>
      ) : (
        <PairedComparison
          paired={agreement.data.paired}
          version={version}
          baselineActive={base === metric.version}
        />
      )}
    </article>
  );
};
