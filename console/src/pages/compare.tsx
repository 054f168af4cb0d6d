import { useQuery } from '@tanstack/react-query';
import { getRouteApi, Link } from '@tanstack/react-router';
import type { PassRate } from '@voice-eval/contract';
import { Loading, ProblemView } from '../components/problem.tsx';
import { useClient } from '../components/session-context.tsx';
import { percent } from '../format.ts';

const route = getRouteApi('/app/runs/$runId/compare');

const Rate = ({ rate }: { rate: PassRate | null }) =>
  rate === null || rate.pass_rate === null ? (
    <span className="muted">–</span>
  ) : (
    <span>
      {percent(rate.pass_rate)}{' '}
      <span className="muted">
        [{percent(rate.ci_low)}–{percent(rate.ci_high)}] n={rate.scored}
      </span>
    </span>
  );

/** A run against its baseline: per metric the intervals, Δ and p; a regression only when significant. */
export const ComparePage = () => {
  const client = useClient();
  const { runId } = route.useParams();
  const { baseline } = route.useSearch();
  const comparison = useQuery({
    queryKey: ['compare', runId, baseline],
    queryFn: () => client.suiteRuns.compare(runId, { baseline_run_id: baseline }),
  });
  if (comparison.isPending) return <Loading what="comparison" />;
  if (comparison.isError) return <ProblemView error={comparison.error} what="comparison" />;
  const c = comparison.data;
  const regressed = c.combinations.filter((combination) => combination.regressed_calls.length > 0);
  return (
    <section>
      <div className="page-head">
        <h1>Compare</h1>
        <Link to="/runs/$runId" params={{ runId }}>
          This run
        </Link>
        {c.baseline_run_id && (
          <Link to="/runs/$runId" params={{ runId: c.baseline_run_id }}>
            Baseline run
          </Link>
        )}
      </div>
      {c.baseline_run_id === null ? (
        <p className="empty">The suite has no earlier completed run to compare with.</p>
      ) : (
        <>
          <p className="muted">
            Fisher's exact test per metric; a drop is a regression only when p is below {c.significance_level}
            .
          </p>
          {c.warnings.length > 0 && (
            <ul className="cautions" aria-label="Before reading the deltas">
              {c.warnings.map((warning) => (
                <li key={warning}>{warning}</li>
              ))}
            </ul>
          )}
          <table>
            <thead>
              <tr>
                <th scope="col">Metric</th>
                <th scope="col">This run</th>
                <th scope="col">Baseline</th>
                <th scope="col">Δ</th>
                <th scope="col">p</th>
                <th scope="col">Verdict</th>
              </tr>
            </thead>
            <tbody>
              {c.metrics.map((m) => (
                <tr key={m.metric_id}>
                  <td>
                    {m.metric_name}
                    {m.version_changed && (
                      <>
                        {' '}
                        <span
                          className="badge warn"
                          title="Scored with another version of the metric than the baseline"
                        >
                          v{m.baseline_version} → v{m.version}
                        </span>
                      </>
                    )}
                  </td>
                  <td>
                    <Rate rate={m.current} />
                  </td>
                  <td>
                    <Rate rate={m.baseline} />
                  </td>
                  <td className="num">
                    {m.delta === null ? '–' : `${m.delta > 0 ? '+' : ''}${(m.delta * 100).toFixed(1)} pt`}
                  </td>
                  <td className="num">{m.p_value === null ? '–' : m.p_value.toPrecision(2)}</td>
                  <td>
                    {m.regression ? (
                      <span className="badge bad">regression</span>
                    ) : m.significant ? (
                      <span className="badge good">improved</span>
                    ) : (
                      <span className="muted">no significant change</span>
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
          <h2>Regressed calls</h2>
          {regressed.length === 0 ? (
            <p className="empty">No call regressed against its combination's baseline calls.</p>
          ) : (
            <ul>
              {regressed.map((combination) => (
                <li key={combination.combination_id}>
                  {combination.persona_name} × {combination.scenario_name}:{' '}
                  {combination.regressed_calls.map((call) => (
                    <Link
                      key={call.call_import_row_id}
                      to="/runs/$runId/compare/$rowId"
                      params={{ runId, rowId: call.call_import_row_id }}
                      search={{
                        baseline: c.baseline_run_id ?? undefined,
                        combination: combination.combination_id,
                        metric: call.metric_ids[0],
                      }}
                    >
                      {call.conversation_id}
                    </Link>
                  ))}
                </li>
              ))}
            </ul>
          )}
        </>
      )}
    </section>
  );
};
