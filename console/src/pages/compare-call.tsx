import { useQuery } from '@tanstack/react-query';
import { getRouteApi, Link } from '@tanstack/react-router';
import { Loading, ProblemView } from '../components/problem.tsx';
import { useClient } from '../components/session-context.tsx';
import { CallPane } from './call.tsx';

const route = getRouteApi('/app/runs/$runId/compare/$rowId');

/**
 * A regressed call beside a call of the same persona and scenario in the baseline run, each with
 * its audio, transcript and verdicts: what changed is read off side by side. The page's keys
 * drive this run's call.
 */
export const CompareCallPage = () => {
  const client = useClient();
  const { runId, rowId } = route.useParams();
  const { baseline, combination, metric } = route.useSearch();
  const runs = useQuery({
    queryKey: ['run-and-baseline', runId, baseline],
    queryFn: () =>
      Promise.all([client.suiteRuns.get(runId), baseline ? client.suiteRuns.get(baseline) : null]),
  });
  const [run, baselineRun] = runs.data ?? [];
  const cell = run?.combination_summary.find((c) => c.combination_id === combination);
  const baselineCall = useQuery({
    queryKey: ['baseline-call', baseline, cell?.persona_id, cell?.scenario_id],
    queryFn: async () => {
      const calls = await client.suiteRuns.listCalls(baseline!, {
        persona_id: cell!.persona_id,
        scenario_id: cell!.scenario_id,
        status: 'completed',
        page_size: 1,
      });
      return calls.items[0] ?? null;
    },
    enabled: baseline !== undefined && cell !== undefined,
  });

  if (runs.isPending) return <Loading what="calls" />;
  if (runs.isError) return <ProblemView error={runs.error} what="run" />;
  return (
    <section>
      <div className="page-head">
        <h1>
          {cell ? `${cell.persona_name} × ${cell.scenario_name}` : 'A call'}: this run beside the baseline
        </h1>
        <Link to="/runs/$runId/compare" params={{ runId }} search={{ baseline }}>
          Back to the comparison
        </Link>
      </div>
      <div className="beside">
        <CallPane
          call={{ importId: run!.call_import_id, rowId, runId }}
          heading="This run"
          selectedMetric={metric}
        />
        {!baselineRun || !cell ? (
          <p className="empty">
            This link does not name the baseline run and the call's persona and scenario.
          </p>
        ) : baselineCall.isPending ? (
          <Loading what="baseline call" />
        ) : baselineCall.isError ? (
          <ProblemView error={baselineCall.error} what="baseline call" />
        ) : baselineCall.data === null ? (
          <p className="empty">The baseline run has no completed call of this persona and scenario.</p>
        ) : (
          <CallPane
            call={{
              importId: baselineRun.call_import_id,
              rowId: baselineCall.data.call_import_row_id,
              runId: baselineRun.id,
              callId: baselineCall.data.id,
            }}
            heading="Baseline"
            selectedMetric={metric}
            keyboard={false}
          />
        )}
      </div>
    </section>
  );
};
