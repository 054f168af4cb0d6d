import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { getRouteApi, Link, useNavigate } from '@tanstack/react-router';
import { SUITE_RUN_STATUSES, type SuiteRun } from '@voice-eval/contract';
import { useState } from 'react';
import { SelectFilter } from '../components/filters.tsx';
import { Pager } from '../components/pager.tsx';
import { Loading, ProblemView } from '../components/problem.tsx';
import { useSession } from '../components/session-context.tsx';
import { dateTime, interval, percent } from '../format.ts';

const route = getRouteApi('/app/runs');
const PAGE_SIZE = 25;
const ACTIVE: ReadonlyArray<SuiteRun['status']> = ['pending', 'running', 'evaluating'];

/** Suite runs, newest first: status, pass rate with n, progress while active; pick two to compare. */
export const RunsPage = () => {
  const session = useSession();
  const client = session.client;
  const search = route.useSearch();
  const navigate = useNavigate();
  const [picked, setPicked] = useState<SuiteRun[]>([]);
  const runs = useQuery({
    queryKey: ['runs', search.status, search.page ?? 1],
    queryFn: () =>
      client.suiteRuns.list({ status: search.status, page: search.page ?? 1, page_size: PAGE_SIZE }),
    placeholderData: keepPreviousData,
    refetchInterval: (query) =>
      query.state.data?.items.some((r) => ACTIVE.includes(r.status)) ? 2000 : false,
  });

  // the two runs picked to compare (kept across pages)
  const toggle = (run: SuiteRun) =>
    setPicked((now) =>
      now.some((p) => p.id === run.id) ? now.filter((p) => p.id !== run.id) : [...now.slice(-1), run],
    );

  return (
    <section>
      <div className="page-head">
        <h1>Runs</h1>
        <SelectFilter
          label="Status"
          value={search.status}
          choices={SUITE_RUN_STATUSES}
          onChange={(status) => void navigate({ to: '/runs', search: { status } })}
        />
        <button
          type="button"
          disabled={picked.length !== 2}
          onClick={() => {
            // the newer run is compared with the older one
            const [a, b] = [...picked].sort((x, y) => y.created_at.localeCompare(x.created_at));
            void navigate({
              to: '/runs/$runId/compare',
              params: { runId: a!.id },
              search: { baseline: b!.id },
            });
          }}
        >
          Compare {picked.length}/2
        </button>
      </div>
      {runs.isPending ? (
        <Loading what="runs" />
      ) : runs.isError ? (
        <ProblemView error={runs.error} what="runs" />
      ) : runs.data.total === 0 ? (
        <EmptyRuns filtered={search.status !== undefined} apiBase={session.apiBase} />
      ) : (
        <>
          <table>
            <thead>
              <tr>
                <th scope="col">
                  <span className="visually-hidden">Pick to compare</span>
                </th>
                <th scope="col">Suite</th>
                <th scope="col">Started</th>
                <th scope="col">Channel</th>
                <th scope="col">Status</th>
                <th scope="col">Pass rate</th>
                <th scope="col">Calls</th>
              </tr>
            </thead>
            <tbody>
              {runs.data.items.map((run) => (
                <tr key={run.id}>
                  <td>
                    <input
                      type="checkbox"
                      aria-label={`Compare ${run.suite_name} of ${dateTime(run.created_at)}`}
                      checked={picked.some((p) => p.id === run.id)}
                      onChange={() => toggle(run)}
                    />
                  </td>
                  <td>
                    <Link to="/runs/$runId" params={{ runId: run.id }}>
                      {run.suite_name}
                    </Link>
                  </td>
                  <td>{dateTime(run.started_at ?? run.created_at)}</td>
                  <td>{run.channel}</td>
                  <td>
                    <RunStatus run={run} />
                  </td>
                  <td>
                    <PassRate run={run} />
                  </td>
                  <td className="num">{run.calls_total}</td>
                </tr>
              ))}
            </tbody>
          </table>
          <Pager
            page={runs.data.page}
            pageSize={PAGE_SIZE}
            total={runs.data.total}
            to={(page) => ({ to: '/runs', search: { ...search, page } })}
          />
        </>
      )}
    </section>
  );
};

export const RunStatus = ({ run }: { run: SuiteRun }) => {
  const done = run.calls_completed + run.calls_failed + run.calls_cancelled;
  return (
    <span className={`status status-${run.status}`}>
      {run.status}
      {ACTIVE.includes(run.status) && run.calls_total > 0 && (
        <progress
          max={run.calls_total}
          value={done}
          aria-label={`${done} of ${run.calls_total} calls done`}
        />
      )}
    </span>
  );
};

const PassRate = ({ run }: { run: SuiteRun }) => {
  if (run.pass_rate === null) return <span className="muted">–</span>;
  const n = run.calls_completed;
  const passed = Math.round(run.pass_rate * n);
  return (
    <span title={`95% interval ${interval(passed, n)}`}>
      {percent(run.pass_rate)} <span className="muted">n={n}</span>
    </span>
  );
};

const EmptyRuns = ({ filtered, apiBase }: { filtered: boolean; apiBase: string }) =>
  filtered ? (
    <p className="empty">No run has this status.</p>
  ) : (
    <div className="empty">
      <h2>No runs yet</h2>
      <p>Start a run of a suite from the command line or the SDK; it appears here as it goes.</p>
      <pre>
        <code>
          npx voice-eval run-suite &lt;suite id&gt; --url {apiBase.replace(/\/+$/, '')} --api-key &lt;key&gt;
        </code>
      </pre>
      <pre>
        <code>{`const run = await client.suiteRuns.create(suiteId);
await client.suiteRuns.waitFor(run.id);`}</code>
      </pre>
      <p>
        No agent or provider yet? <code>pnpm demo</code> starts a server with a scripted agent and runs a
        suite against it.
      </p>
    </div>
  );
