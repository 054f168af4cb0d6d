import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { getRouteApi, Link, useNavigate } from '@tanstack/react-router';
import { SUITE_RUN_CALL_STATUSES, type SuiteRun, type SuiteRunCallStatus } from '@voice-eval/contract';
import { Pager } from '../components/pager.tsx';
import { Loading, ProblemView } from '../components/problem.tsx';
import { useClient } from '../components/session-context.tsx';
import { dateTime, interval, milliseconds, percent } from '../format.ts';
import { RunStatus } from './runs.tsx';

const route = getRouteApi('/app/runs/$runId');
const PAGE_SIZE = 50;
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
                    {percent(c.pass_rate)} <span className="muted">n={scored}</span>
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

/** The run's calls by status, or (with `flagged`) the calls a metric flagged. */
const Calls = ({ run }: { run: SuiteRun }) => {
  const search = route.useSearch();
  const navigate = useNavigate();
  const filter = (next: Partial<typeof search>) =>
    void navigate({
      to: '/runs/$runId',
      params: { runId: run.id },
      search: { ...search, ...next, page: undefined },
    });
  return (
    <>
      <div className="page-head">
        <h2>Calls</h2>
        <label>
          Status{' '}
          <select
            value={search.status ?? ''}
            disabled={search.flagged === true}
            onChange={(e) =>
              filter({ status: (e.target.value || undefined) as SuiteRunCallStatus | undefined })
            }
          >
            <option value="">any</option>
            {SUITE_RUN_CALL_STATUSES.map((s) => (
              <option key={s}>{s}</option>
            ))}
          </select>
        </label>
        <label>
          <input
            type="checkbox"
            checked={search.flagged === true}
            disabled={!run.evaluation_id}
            onChange={(e) => filter({ flagged: e.target.checked || undefined, metric: undefined })}
          />{' '}
          Flagged only
        </label>
        {search.flagged && (
          <label>
            Metric{' '}
            <select
              value={search.metric ?? ''}
              onChange={(e) => filter({ metric: e.target.value || undefined })}
            >
              <option value="">any</option>
              {run.metric_summary.map((m) => (
                <option key={m.metric_id} value={m.metric_id}>
                  {m.metric_name}
                </option>
              ))}
            </select>
          </label>
        )}
      </div>
      {search.flagged && run.evaluation_id ? (
        <FlaggedCalls run={run} evaluationId={run.evaluation_id} />
      ) : (
        <CallTable run={run} />
      )}
    </>
  );
};

const CallTable = ({ run }: { run: SuiteRun }) => {
  const client = useClient();
  const search = route.useSearch();
  const page = search.page ?? 1;
  const calls = useQuery({
    queryKey: ['run-calls', run.id, search.status, page, run.calls_completed + run.calls_failed],
    queryFn: () => client.suiteRuns.listCalls(run.id, { status: search.status, page, page_size: PAGE_SIZE }),
    placeholderData: keepPreviousData,
  });
  if (calls.isPending) return <Loading what="calls" />;
  if (calls.isError) return <ProblemView error={calls.error} what="calls" />;
  const names = new Map(run.combination_summary.map((c) => [c.combination_id, c]));
  if (calls.data.total === 0) return <p className="empty">No call matches.</p>;
  return (
    <>
      <table>
        <thead>
          <tr>
            <th scope="col">Call</th>
            <th scope="col">Persona × scenario</th>
            <th scope="col">Status</th>
            <th scope="col">Turns</th>
            <th scope="col">Agent latency p50</th>
          </tr>
        </thead>
        <tbody>
          {calls.data.items.map((call) => {
            const combination = names.get(call.combination_id);
            return (
              <tr key={call.id}>
                <td>
                  <Link
                    to="/calls/$rowId"
                    params={{ rowId: call.call_import_row_id }}
                    search={{ import: run.call_import_id, run: run.id, call: call.id }}
                  >
                    {call.conversation_id}
                  </Link>
                </td>
                <td>
                  {combination ? `${combination.persona_name} × ${combination.scenario_name}` : '–'}
                  {call.repetition > 1 && <span className="muted"> #{call.repetition}</span>}
                </td>
                <td>
                  <span className={`status status-${call.status}`}>{call.status}</span>
                  {call.error && <span className="error"> {call.error.code}</span>}
                </td>
                <td className="num">{call.turns}</td>
                <td className="num">{milliseconds(call.agent_latency?.p50_ms)}</td>
              </tr>
            );
          })}
        </tbody>
      </table>
      <Pager
        page={page}
        pageSize={PAGE_SIZE}
        total={calls.data.total}
        to={(p) => ({ to: '/runs/$runId', params: { runId: run.id }, search: { ...search, page: p } })}
      />
    </>
  );
};

const FlaggedCalls = ({ run, evaluationId }: { run: SuiteRun; evaluationId: string }) => {
  const client = useClient();
  const search = route.useSearch();
  const page = search.page ?? 1;
  const rows = useQuery({
    queryKey: ['flagged-rows', evaluationId, page],
    queryFn: () => client.evaluations.listRows(evaluationId, { flagged: true, page, page_size: PAGE_SIZE }),
    placeholderData: keepPreviousData,
  });
  if (rows.isPending) return <Loading what="flagged calls" />;
  if (rows.isError) return <ProblemView error={rows.error} what="flagged calls" />;
  const shown = rows.data.items.filter(
    (row) => !search.metric || row.results.some((r) => r.flagged && r.metric_id === search.metric),
  );
  if (shown.length === 0) return <p className="empty">No flagged call on this page.</p>;
  return (
    <>
      <table>
        <thead>
          <tr>
            <th scope="col">Call</th>
            <th scope="col">Flagged on</th>
          </tr>
        </thead>
        <tbody>
          {shown.map((row) => {
            const flagged = row.results.filter((r) => r.flagged);
            return (
              <tr key={row.id}>
                <td>
                  <Link
                    to="/calls/$rowId"
                    params={{ rowId: row.call_import_row_id }}
                    search={{
                      import: run.call_import_id,
                      run: run.id,
                      metric: search.metric ?? flagged[0]?.metric_id,
                    }}
                  >
                    {row.conversation_id}
                  </Link>
                </td>
                <td>{flagged.map((r) => r.metric_name).join(', ')}</td>
              </tr>
            );
          })}
        </tbody>
      </table>
      <Pager
        page={page}
        pageSize={PAGE_SIZE}
        total={rows.data.total}
        to={(p) => ({ to: '/runs/$runId', params: { runId: run.id }, search: { ...search, page: p } })}
      />
    </>
  );
};
