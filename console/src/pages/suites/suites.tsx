import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { getRouteApi, Link, useNavigate } from '@tanstack/react-router';
import type { EvaluatorSuite } from '@voice-eval/contract';
import { SearchBox } from '../../components/filters.tsx';
import { Pager } from '../../components/pager.tsx';
import { Loading, ProblemView } from '../../components/problem.tsx';
import { useClient } from '../../components/session-context.tsx';
import { dateTime } from '../../format.ts';

const route = getRouteApi('/app/suites');
const PAGE_SIZE = 25;

/** The workspace's suites: what each calls, how often it runs by itself, and a way in. */
export const SuitesPage = () => {
  const client = useClient();
  const search = route.useSearch();
  const navigate = useNavigate();
  const suites = useQuery({
    queryKey: ['suites', search.q, search.page ?? 1],
    queryFn: () => client.evaluatorSuites.list({ q: search.q, page: search.page ?? 1, page_size: PAGE_SIZE }),
    placeholderData: keepPreviousData,
  });

  return (
    <section>
      <div className="page-head">
        <h1>Suites</h1>
        <SearchBox
          label="Name"
          value={search.q}
          onSearch={(q) => void navigate({ to: '/suites', search: { q } })}
        />
      </div>
      {suites.isPending ? (
        <Loading what="suites" />
      ) : suites.isError ? (
        <ProblemView error={suites.error} what="suites" />
      ) : suites.data.total === 0 ? (
        search.q ? (
          <p className="empty">No suite's name contains “{search.q}”.</p>
        ) : (
          <div className="empty">
            <h2>No suites yet</h2>
            <p>
              A suite is an agent called by personas in scenarios, scored by metrics. Create one with the SDK;
              it appears here, with its runs.
            </p>
            <pre>
              <code>{`await client.evaluatorSuites.create({
  name: 'Booking',
  agent_id: agent.id,
  persona_ids: [persona.id],
  scenario_ids: [scenario.id],
  metric_ids: [metric.id],
});`}</code>
            </pre>
          </div>
        )
      ) : (
        <>
          <table>
            <thead>
              <tr>
                <th scope="col">Suite</th>
                <th scope="col">Agent</th>
                <th scope="col">Combinations</th>
                <th scope="col">Schedule (UTC)</th>
                <th scope="col">Active</th>
              </tr>
            </thead>
            <tbody>
              {suites.data.items.map((suite) => (
                <tr key={suite.id}>
                  <td>
                    <Link to="/suites/$suiteId" params={{ suiteId: suite.id }}>
                      {suite.name}
                    </Link>
                  </td>
                  <td>{suite.agent_name}</td>
                  <td className="num">
                    {suite.combination_count}
                    {suite.default_runs_per_combination > 1 && (
                      <span className="muted"> ×{suite.default_runs_per_combination}</span>
                    )}
                  </td>
                  <td>
                    <Schedule suite={suite} />
                  </td>
                  <td>{suite.is_active ? 'yes' : 'no'}</td>
                </tr>
              ))}
            </tbody>
          </table>
          <Pager
            page={suites.data.page}
            pageSize={PAGE_SIZE}
            total={suites.data.total}
            to={(page) => ({ to: '/suites', search: { ...search, page } })}
          />
        </>
      )}
    </section>
  );
};

export const Schedule = ({ suite }: { suite: EvaluatorSuite }) =>
  suite.schedule === null ? (
    <span className="muted">none</span>
  ) : (
    <span>
      <code>{suite.schedule}</code>{' '}
      {suite.schedule_enabled ? (
        <span className="muted">next {dateTime(suite.next_run_at)}</span>
      ) : (
        <span className="muted">paused</span>
      )}
    </span>
  );
