import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { getRouteApi, Link, useNavigate } from '@tanstack/react-router';
import {
  SUITE_RUN_CALL_STATUSES,
  type SuiteRun,
  type SuiteRunCombinationSummary,
} from '@voice-eval/contract';
import { SelectFilter } from '../components/filters.tsx';
import { Pager } from '../components/pager.tsx';
import { Loading, ProblemView } from '../components/problem.tsx';
import { useClient } from '../components/session-context.tsx';
import { milliseconds } from '../format.ts';

const route = getRouteApi('/app/runs/$runId');
const PAGE_SIZE = 50;

/** The run's calls by status, or (with `flagged`) the calls a metric flagged. */
export const Calls = ({ run }: { run: SuiteRun }) => {
  const search = route.useSearch();
  const navigate = useNavigate();
  const filter = (next: Partial<typeof search>) =>
    void navigate({
      to: '/runs/$runId',
      params: { runId: run.id },
      search: { ...search, ...next, page: undefined },
    });
  const personas = uniqueBy(run.combination_summary, 'persona_id', 'persona_name');
  const scenarios = uniqueBy(run.combination_summary, 'scenario_id', 'scenario_name');
  return (
    <>
      <div className="page-head">
        <h2 id="calls">Calls</h2>
        <SelectFilter
          label="Status"
          value={search.status}
          choices={SUITE_RUN_CALL_STATUSES}
          disabled={search.flagged === true}
          onChange={(status) => filter({ status })}
        />
        {personas.length > 1 && (
          <SelectFilter
            label="Persona"
            value={search.persona}
            choices={personas}
            disabled={search.flagged === true}
            onChange={(persona) => filter({ persona })}
          />
        )}{' '}
        {scenarios.length > 1 && (
          <SelectFilter
            label="Scenario"
            value={search.scenario}
            choices={scenarios}
            disabled={search.flagged === true}
            onChange={(scenario) => filter({ scenario })}
          />
        )}{' '}
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
          <SelectFilter
            label="Metric"
            value={search.metric}
            choices={run.metric_summary.map((m) => ({ value: m.metric_id, label: m.metric_name }))}
            onChange={(metric) => filter({ metric })}
          />
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
    queryKey: [
      'run-calls',
      run.id,
      search.status,
      search.persona,
      search.scenario,
      page,
      run.calls_completed + run.calls_failed,
    ],
    queryFn: () =>
      client.suiteRuns.listCalls(run.id, {
        status: search.status,
        persona_id: search.persona,
        scenario_id: search.scenario,
        page,
        page_size: PAGE_SIZE,
      }),
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
      <RunPager run={run} total={calls.data.total} />
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
      <RunPager run={run} total={rows.data.total} />
    </>
  );
};

/** Pages of the run's calls (or flagged calls), keeping the other filters. */
const RunPager = ({ run, total }: { run: SuiteRun; total: number }) => {
  const search = route.useSearch();
  return (
    <Pager
      page={search.page ?? 1}
      pageSize={PAGE_SIZE}
      total={total}
      to={(page) => ({ to: '/runs/$runId', params: { runId: run.id }, search: { ...search, page } })}
    />
  );
};

/** The distinct personas (or scenarios) of a run's combinations, by name. */
const uniqueBy = (
  combinations: SuiteRunCombinationSummary[],
  id: 'persona_id' | 'scenario_id',
  name: 'persona_name' | 'scenario_name',
) =>
  [...new Map(combinations.map((c) => [c[id], { value: c[id], label: c[name] }])).values()].sort((a, b) =>
    a.label.localeCompare(b.label),
  );
