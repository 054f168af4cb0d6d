import { useMutation, useQuery } from '@tanstack/react-query';
import { getRouteApi, Link } from '@tanstack/react-router';
import type { MetricClustersReport } from '@voice-eval/contract';
import { Loading, ProblemView } from '../components/problem.tsx';
import { useCanWrite, useClient } from '../components/session-context.tsx';
import { dateTime } from '../format.ts';
import { DiscoveredProblems } from './clusters-discovered.tsx';

const route = getRouteApi('/app/clusters');
type Evidence = MetricClustersReport['groups'][number]['clusters'][number]['evidence'][number];

/**
 * The failure clusters of an evaluation (`?evaluation=`) or of the workspace: per metric, groups
 * of flagged calls with a shared root cause, and evidence cards that open the call at the quote.
 */
export const ClustersPage = () => {
  const client = useClient();
  const search = route.useSearch();
  const canWrite = useCanWrite();
  const scope = search.evaluation ? { job_id: search.evaluation } : {};
  const evaluation = useQuery({
    queryKey: ['evaluation', search.evaluation],
    queryFn: () => client.evaluations.get(search.evaluation!),
    enabled: search.evaluation !== undefined,
  });
  const report = useQuery({
    queryKey: ['clusters', search.evaluation],
    queryFn: () => client.evaluatorResults.metricClusters(scope),
    refetchInterval: (query) => (query.state.data?.status === 'running' ? 2000 : false),
  });
  const regenerate = useMutation({
    mutationFn: () => client.evaluatorResults.generateMetricClusters(scope),
    onSuccess: () => void report.refetch(),
  });
  if (report.isPending) return <Loading what="failure clusters" />;
  if (report.isError) return <ProblemView error={report.error} what="failure clusters" />;
  const r = report.data;
  const groups = r.groups.filter((g) => !search.metric || g.metric_id === search.metric);
  const importId = evaluation.data?.call_import_id;
  return (
    <section>
      <div className="page-head">
        <h1>Failure clusters</h1>
        <span className="muted">
          {search.evaluation ? 'of one evaluation' : 'of the workspace'} · {r.status}
          {r.generated_at && ` · generated ${dateTime(r.generated_at)}`}
          {r.is_stale && ' · out of date'}
        </span>
        {canWrite && (
          <button
            type="button"
            onClick={() => regenerate.mutate()}
            disabled={r.status === 'running' || regenerate.isPending}
          >
            {r.status === 'running' ? 'Generating…' : 'Regenerate'}
          </button>
        )}
      </div>
      {regenerate.isError && <ProblemView error={regenerate.error} what="generation" />}
      {r.status === 'running' && (
        <p>
          {r.progress.phase.replaceAll('_', ' ')}{' '}
          <progress
            max={Math.max(1, r.progress.total_steps)}
            value={r.progress.completed_steps}
            aria-label="Generation progress"
          />
        </p>
      )}
      {r.error_message && <p className="error">{r.error_message}</p>}
      {r.overview && <p>{r.overview}</p>}
      {groups.length === 0 && r.discovered_problems.length === 0 && r.status !== 'running' && (
        <p className="empty">
          No clusters yet: they are made from the flagged calls of a scored run
          {canWrite ? ' (Regenerate)' : ''}.
        </p>
      )}
      <DiscoveredProblems
        problems={search.metric ? [] : r.discovered_problems}
        renderEvidence={(problem) => (
          <ul className="evidence-cards">
            {problem.evidence.map((e) => (
              <li key={`${e.evaluation_row_id}-${e.quote}`}>
                <EvidenceCard evidence={e} importId={importId} metricId={undefined} />
              </li>
            ))}
          </ul>
        )}
      />
      {groups.map((group) => (
        <article key={group.metric_id} className="cluster-group">
          <h2>
            {group.metric_name} <span className="muted">{group.flagged_count} flagged</span>
          </h2>
          {group.clusters.map((cluster) => (
            <section key={cluster.id} className="cluster">
              <h3>
                {cluster.label}{' '}
                <span className="badge">{cluster.gap_label.replace('_GAP', '').toLowerCase()}</span>{' '}
                <span className="muted">
                  {cluster.count} calls · {cluster.share_pct.toFixed(0)}%
                </span>
              </h3>
              <p>{cluster.observation}</p>
              {cluster.sub_clusters.length > 0 && (
                <p className="muted">
                  Within: {cluster.sub_clusters.map((s) => `${s.label} (${s.count})`).join(' · ')}
                </p>
              )}
              <ul className="evidence-cards">
                {cluster.evidence.map((e) => (
                  <li key={`${e.evaluation_row_id}-${e.quote}`}>
                    <EvidenceCard evidence={e} importId={importId} metricId={group.metric_id} />
                  </li>
                ))}
              </ul>
            </section>
          ))}
        </article>
      ))}
    </section>
  );
};

const EvidenceCard = ({
  evidence,
  importId,
  metricId,
}: {
  evidence: Evidence;
  importId: string | undefined;
  metricId: string | undefined;
}) => (
  <figure>
    <blockquote>“{evidence.quote}”</blockquote>
    <figcaption>
      {evidence.call_import_row_id && importId ? (
        <Link
          to="/calls/$rowId"
          params={{ rowId: evidence.call_import_row_id }}
          search={{
            import: importId,
            metric: metricId,
            t: evidence.start_ms === null ? undefined : evidence.start_ms / 1000,
          }}
        >
          {evidence.conversation_id}
        </Link>
      ) : (
        evidence.conversation_id
      )}
    </figcaption>
  </figure>
);
