import { useQuery } from '@tanstack/react-query';
import { getRouteApi, Link } from '@tanstack/react-router';
import type { SuiteRun } from '@voice-eval/contract';
import { Loading, ProblemView } from '../components/problem.tsx';
import { useClient } from '../components/session-context.tsx';
import { dateTime, interval, milliseconds, percent } from '../format.ts';
import { Calls } from './run-calls.tsx';
import { RunStatus } from './runs.tsx';

const route = getRouteApi('/app/runs/$runId');
const ACTIVE: ReadonlyArray<SuiteRun['status']> = ['pending', 'running', 'evaluating'];

/** One run: its metrics with intervals, the persona × scenario grid, voice measures and its calls. */
export const RunPage = () => {
  const client = useClient();
  const { runId } = route.useParams();
  const run = useQuery({
    queryKey: ['run', runId],
    queryFn: () => client.suiteRuns.get(runId),
    refetchInterval: (query) => (query.state.data && ACTIVE.includes(query.state.data.status) ? 2000 : false),
  });
  if (run.isPending) return <Loading what="run" />;
  if (run.isError) return <ProblemView error={run.error} what="run" />;
  const r = run.data;
  return (
    <section>
      <div className="page-head">
        <h1>
          {r.suite_name} <span className="muted">run of {dateTime(r.started_at ?? r.created_at)}</span>
        </h1>
        <RunStatus run={r} />
        {r.status === 'completed' && (
          <Link
            to="/runs/$runId/compare"
            params={{ runId }}
            search={{ baseline: r.baseline_run_id ?? undefined }}
          >
            Compare with baseline
          </Link>
        )}
        {r.evaluation_id && (
          <Link to="/clusters" search={{ evaluation: r.evaluation_id }}>
            Failure clusters
          </Link>
        )}
      </div>
      <dl className="facts">
        <div>
          <dt>Pass rate</dt>
          <dd>
            {percent(r.pass_rate)} <span className="muted">n={r.calls_completed}</span>
          </dd>
        </div>
        <div>
          <dt>Calls</dt>
          <dd>
            {r.calls_completed} completed · {r.calls_failed} failed · {r.calls_cancelled} cancelled ·{' '}
            {r.calls_pending + r.calls_running} to go
          </dd>
        </div>
        <div>
          <dt>Channel</dt>
          <dd>{r.channel}</dd>
        </div>
        {r.error_message && (
          <div>
            <dt>Error</dt>
            <dd className="error">{r.error_message}</dd>
          </div>
        )}
      </dl>
      <MetricTable run={r} />
      <CombinationGrid run={r} />
      {r.voice_summary && <VoiceSummary summary={r.voice_summary} />}
      <Calls run={r} />
    </section>
  );
};

const MetricTable = ({ run }: { run: SuiteRun }) =>
  run.metric_summary.length === 0 ? null : (
    <>
      <h2>Metrics</h2>
      <table>
        <thead>
          <tr>
            <th scope="col">Metric</th>
            <th scope="col">Pass rate</th>
            <th scope="col">95% interval</th>
            <th scope="col">Passed</th>
            <th scope="col">Flagged</th>
          </tr>
        </thead>
        <tbody>
          {run.metric_summary.map((m) => (
            <tr key={m.metric_id}>
              <td>{m.metric_name}</td>
              <td className="num">{percent(m.pass_rate)}</td>
              <td className="num">{interval(m.passed, m.scored)}</td>
              <td className="num">
                {m.passed}/{m.scored}
              </td>
              <td className="num">
                {m.flagged > 0 && run.evaluation_id ? (
                  <Link
                    to="/runs/$runId"
                    params={{ runId: run.id }}
                    search={{ flagged: true, metric: m.metric_id }}
                  >
                    {m.flagged}
                  </Link>
                ) : (
                  m.flagged
                )}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </>
  );

/** Personas down, scenarios across; a cell is flaky when its repetitions disagree. */
const CombinationGrid = ({ run }: { run: SuiteRun }) => {
  const personas = [...new Map(run.combination_summary.map((c) => [c.persona_id, c.persona_name]))];
  const scenarios = [...new Map(run.combination_summary.map((c) => [c.scenario_id, c.scenario_name]))];
  if (personas.length === 0) return null;
  const cell = (personaId: string, scenarioId: string) =>
    run.combination_summary.find((c) => c.persona_id === personaId && c.scenario_id === scenarioId);
  return (
    <>
      <h2>Personas × scenarios</h2>
      <table className="grid">
        <thead>
          <tr>
            <th scope="col">Persona</th>
            {scenarios.map(([id, name]) => (
              <th scope="col" key={id}>
                {name}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {personas.map(([personaId, personaName]) => (
            <tr key={personaId}>
              <th scope="row">{personaName}</th>
              {scenarios.map(([scenarioId]) => {
                const c = cell(personaId, scenarioId);
                if (!c) return <td key={scenarioId} />;
                const scored = c.calls_completed;
                const flaky = c.flagged_calls > 0 && c.flagged_calls < scored;
                return (
                  <td key={scenarioId} className={flaky ? 'flaky' : c.flagged_calls > 0 ? 'bad' : 'good'}>
                    <Link
                      to="/runs/$runId"
                      params={{ runId: run.id }}
                      search={{ persona: personaId, scenario: scenarioId }}
                      hash="calls"
                      aria-label={`Calls of ${personaName} × ${c.scenario_name}`}
                    >
                      {percent(c.pass_rate)}
                    </Link>{' '}
                    <span className="muted">n={scored}</span>
                    {flaky && <span className="tag">flaky</span>}
                    {c.calls_failed > 0 && <span className="tag">{c.calls_failed} failed</span>}
                  </td>
                );
              })}
            </tr>
          ))}
        </tbody>
      </table>
    </>
  );
};

/** Times in ms, ratios and shares as percentages, counts (means over calls) as they are. */
const measure = (name: string, value: number): string =>
  name.endsWith('_ms')
    ? milliseconds(Math.round(value))
    : name.endsWith('_ratio') || name === 'yielded_on_barge_in'
      ? percent(value)
      : value.toFixed(value % 1 === 0 ? 0 : 1);

const VoiceSummary = ({ summary }: { summary: Record<string, number> }) => (
  <>
    <h2>Voice measures (mean over calls)</h2>
    <dl className="facts">
      {Object.entries(summary).map(([name, value]) => (
        <div key={name}>
          <dt>{name.replace(/_ms$/, '').replaceAll('_', ' ')}</dt>
          <dd>{measure(name, value)}</dd>
        </div>
      ))}
    </dl>
  </>
);
