import { useQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import type { SuiteRun } from '@voice-eval/contract';
import { lazy, Suspense, useMemo } from 'react';
import { Loading, ProblemView } from '../../components/problem.tsx';
import { useClient } from '../../components/session-context.tsx';
import type { TrendPoint } from '../../components/trend-chart.tsx';
import { dateTime, interval, percent, wilson } from '../../format.ts';
import { RunStatus } from '../runs.tsx';

const TrendChart = lazy(() => import('../../components/trend-chart.tsx'));
/** The runs the trend covers: the latest, newest first. */
const RUNS = 50;
const ACTIVE: ReadonlyArray<SuiteRun['status']> = ['pending', 'running', 'evaluating'];

/** The run's passed calls out of its scored ones, as the run page counts them. */
const scored = (run: SuiteRun) => {
  const n = run.calls_completed;
  return { n, passed: Math.round((run.pass_rate ?? 0) * n) };
};

/** A suite's pass rate over its latest runs, with 95% bands, and the runs as a table. */
export const SuiteTrend = ({ suiteId }: { suiteId: string }) => {
  const client = useClient();
  const runs = useQuery({
    queryKey: ['suite-runs', suiteId],
    queryFn: () => client.suiteRuns.list({ suite_id: suiteId, page_size: RUNS }),
    refetchInterval: (query) =>
      query.state.data?.items.some((r) => ACTIVE.includes(r.status)) ? 2000 : false,
  });
  const points = useMemo<TrendPoint[]>(
    () =>
      (runs.data?.items ?? [])
        .filter((r) => r.status === 'completed' && r.pass_rate !== null && r.calls_completed > 0)
        .map((r) => {
          const { n, passed } = scored(r);
          const band = wilson(passed, n)!;
          return { at: Date.parse(r.finished_at ?? r.created_at) / 1000, rate: r.pass_rate!, ...band };
        })
        .sort((a, b) => a.at - b.at),
    [runs.data],
  );

  if (runs.isPending) return <Loading what="runs" />;
  if (runs.isError) return <ProblemView error={runs.error} what="runs" />;
  if (runs.data.total === 0) return <p className="empty">No run yet: start one above.</p>;
  const items = runs.data.items;
  return (
    <>
      <h2>Pass rate over runs</h2>
      {points.length >= 2 ? (
        <Suspense fallback={<Loading what="chart" />}>
          <TrendChart
            points={points}
            label={`Pass rate of the last ${points.length} completed runs, from ${percent(points[0]!.rate)} to ${percent(points.at(-1)!.rate)}; the table below lists each with its 95% interval.`}
          />
        </Suspense>
      ) : (
        <p className="muted">The chart appears after two completed runs.</p>
      )}
      <table>
        <caption className="visually-hidden">Runs of the suite, newest first</caption>
        <thead>
          <tr>
            <th scope="col">Run</th>
            <th scope="col">Status</th>
            <th scope="col">Pass rate</th>
            <th scope="col">95% interval</th>
            <th scope="col">Trigger</th>
            <th scope="col">
              <span className="visually-hidden">Compare</span>
            </th>
          </tr>
        </thead>
        <tbody>
          {items.map((run, index) => {
            const { n, passed } = scored(run);
            const previous = items.slice(index + 1).find((r) => r.status === 'completed');
            return (
              <tr key={run.id}>
                <td>
                  <Link to="/runs/$runId" params={{ runId: run.id }}>
                    {dateTime(run.started_at ?? run.created_at)}
                  </Link>
                </td>
                <td>
                  <RunStatus run={run} />
                </td>
                <td className="num">
                  {percent(run.pass_rate)} <span className="muted">n={n}</span>
                </td>
                <td className="num">{run.pass_rate === null ? '–' : interval(passed, n)}</td>
                <td>{run.trigger}</td>
                <td>
                  {run.status === 'completed' && previous && (
                    <Link
                      to="/runs/$runId/compare"
                      params={{ runId: run.id }}
                      search={{ baseline: previous.id }}
                    >
                      Compare with the run before
                    </Link>
                  )}
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </>
  );
};
