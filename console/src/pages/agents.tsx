import { keepPreviousData, useMutation, useQuery } from '@tanstack/react-query';
import { getRouteApi, useNavigate } from '@tanstack/react-router';
import { AGENT_CALL_MEDIUMS, type Agent, type AgentTestResult } from '@voice-eval/contract';
import { ApiError } from '@voice-eval/sdk';
import { SearchBox, SelectFilter } from '../components/filters.tsx';
import { Pager } from '../components/pager.tsx';
import { Loading, ProblemView } from '../components/problem.tsx';
import { useCanWrite, useClient } from '../components/session-context.tsx';
import { dateTime, milliseconds } from '../format.ts';

const route = getRouteApi('/app/agents');
const PAGE_SIZE = 25;

const KINDS: Record<NonNullable<Agent['connection']>['kind'], string> = {
  openai_chat: 'OpenAI-compatible chat',
  webhook: 'Webhook',
  twilio_media_stream: 'Twilio Media Stream',
};

/** The workspace's agents under test: how each is called and reached, and a test of that connection. */
export const AgentsPage = () => {
  const client = useClient();
  const search = route.useSearch();
  const navigate = useNavigate();
  const agents = useQuery({
    queryKey: ['agents', search.q, search.medium, search.page ?? 1],
    queryFn: () =>
      client.agents.list({
        q: search.q,
        call_medium: search.medium,
        page: search.page ?? 1,
        page_size: PAGE_SIZE,
      }),
    placeholderData: keepPreviousData,
  });
  const filter = (next: Partial<typeof search>) =>
    void navigate({ to: '/agents', search: { ...search, ...next, page: undefined } });

  return (
    <section>
      <div className="page-head">
        <h1>Agents</h1>
        <SelectFilter
          label="Reached by"
          value={search.medium}
          choices={AGENT_CALL_MEDIUMS}
          onChange={(medium) => filter({ medium })}
        />
        <SearchBox label="Name" value={search.q} onSearch={(q) => filter({ q })} />
      </div>
      {agents.isPending ? (
        <Loading what="agents" />
      ) : agents.isError ? (
        <ProblemView error={agents.error} what="agents" />
      ) : agents.data.total === 0 ? (
        search.q || search.medium ? (
          <p className="empty">No agent matches.</p>
        ) : (
          <div className="empty">
            <h2>No agents yet</h2>
            <p>
              An agent is the voice agent under test; suites call it. Create one with the SDK, with the
              connection simulated calls reach it by:
            </p>
            <pre>
              <code>{`await client.agents.create({
  name: 'Clinic receptionist',
  call_type: 'inbound',
  call_medium: 'web',
  connection: { kind: 'openai_chat', base_url: 'https://agent.example/v1', model: 'clinic-1' },
});`}</code>
            </pre>
          </div>
        )
      ) : (
        <>
          <table>
            <thead>
              <tr>
                <th scope="col">Agent</th>
                <th scope="col">Call</th>
                <th scope="col">Connection</th>
                <th scope="col">Test</th>
              </tr>
            </thead>
            <tbody>
              {agents.data.items.map((agent) => (
                <tr key={agent.id}>
                  <td>
                    <strong>{agent.name}</strong>
                    {agent.description && <div className="muted">{agent.description}</div>}
                  </td>
                  <td>
                    {agent.call_type} · {agent.call_medium}
                    {agent.phone_number && <div className="muted">{agent.phone_number}</div>}
                  </td>
                  <td>
                    <Connection agent={agent} />
                  </td>
                  <td>
                    <TestConnection agent={agent} />
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
          <Pager
            page={agents.data.page}
            pageSize={PAGE_SIZE}
            total={agents.data.total}
            to={(page) => ({ to: '/agents', search: { ...search, page } })}
          />
        </>
      )}
    </section>
  );
};

const Connection = ({ agent }: { agent: Agent }) => {
  const c = agent.connection;
  if (c === null) return <span className="muted">none: a run needs one</span>;
  return (
    <>
      {KINDS[c.kind]}
      <div className="url">
        <code>{c.kind === 'openai_chat' ? c.base_url : c.url}</code>
      </div>
      {c.kind === 'openai_chat' && <div className="muted">model {c.model}</div>}
    </>
  );
};

const outcomeOf = (result: AgentTestResult): string =>
  result.ok
    ? `Connected in ${milliseconds(result.latency_ms)}${result.greeting ? `: “${result.greeting}”` : ''}`
    : `Failed after ${milliseconds(result.latency_ms)}: ${result.error?.message ?? 'no answer'} (${result.error?.code ?? 'error'})`;

/** One greeting round trip to the agent; the outcome is announced in a live region beside the button. */
const TestConnection = ({ agent }: { agent: Agent }) => {
  const client = useClient();
  const canWrite = useCanWrite();
  const test = useMutation({ mutationFn: () => client.agents.test(agent.id) });
  const result = test.data;
  const text = test.isPending
    ? 'Testing…'
    : test.isError
      ? test.error instanceof ApiError
        ? `Could not test: ${test.error.detail ?? test.error.message}`
        : String(test.error)
      : result
        ? outcomeOf(result)
        : '';
  return (
    <div className="actions">
      {canWrite && (
        <button
          type="button"
          onClick={() => test.mutate()}
          disabled={test.isPending || agent.connection === null}
          aria-label={`Test connection of ${agent.name}`}
        >
          Test connection
        </button>
      )}
      <output
        aria-live="polite"
        className={
          test.isPending
            ? undefined
            : test.isError || result?.ok === false
              ? 'bad'
              : result
                ? 'good'
                : undefined
        }
        title={result ? `tested ${dateTime(result.tested_at)}` : undefined}
      >
        {text}
      </output>
    </div>
  );
};
