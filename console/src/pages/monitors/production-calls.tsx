import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { getRouteApi, Link, useNavigate } from '@tanstack/react-router';
import type { ProductionCall } from '@voice-eval/contract';
import { AgentFilter, AgentName } from '../../components/agent-names.tsx';
import { SearchBox } from '../../components/filters.tsx';
import { Pager } from '../../components/pager.tsx';
import { Loading, ProblemView } from '../../components/problem.tsx';
import { useClient } from '../../components/session-context.tsx';
import { clock, dateTime } from '../../format.ts';

const route = getRouteApi('/app/production-calls');
const PAGE_SIZE = 25;
const UNDER_WAY: ReadonlyArray<ProductionCall['recording_status']> = ['pending', 'running'];

/** A live agent's calls as they arrived (pushed by its platform or submitted), each opening the call. */
export const ProductionCallsPage = () => {
  const client = useClient();
  const search = route.useSearch();
  const navigate = useNavigate();
  const calls = useQuery({
    queryKey: ['production-calls', search.agent, search.provider, search.page ?? 1],
    queryFn: () =>
      client.productionCalls.list({
        agent_id: search.agent,
        provider: search.provider,
        page: search.page ?? 1,
        page_size: PAGE_SIZE,
      }),
    placeholderData: keepPreviousData,
    // recordings are downloaded in the background: follow them while any is under way
    refetchInterval: (query) =>
      query.state.data?.items.some((c) => UNDER_WAY.includes(c.recording_status)) ? 2000 : 10_000,
  });
  const filter = (next: Partial<typeof search>) =>
    void navigate({ to: '/production-calls', search: { ...search, ...next, page: undefined } });

  return (
    <section>
      <div className="page-head">
        <h1>Production calls</h1>
        <AgentFilter value={search.agent} onChange={(agent) => filter({ agent })} />
        <SearchBox
          label="Provider"
          value={search.provider}
          onSearch={(provider) => filter({ provider: provider?.toLowerCase() })}
        />
        <Link to="/monitors" search={{ agent: search.agent }}>
          Monitors
        </Link>
      </div>
      {calls.isPending ? (
        <Loading what="production calls" />
      ) : calls.isError ? (
        <ProblemView error={calls.error} what="production calls" />
      ) : calls.data.total === 0 ? (
        search.agent || search.provider ? (
          <p className="empty">No production call matches.</p>
        ) : (
          <div className="empty">
            <h2>No production calls yet</h2>
            <p>
              A live agent's calls arrive from its platform (an integration's ingest URL: Vapi, Retell,
              ElevenLabs, Twilio), or submitted with the SDK:
            </p>
            <pre>
              <code>{`await client.productionCalls.submit({
  agent_id: agent.id,
  provider: 'livekit',
  external_call_id: room.sid,
  transcript: [{ role: 'agent', text: 'Thanks for calling.' }],
});`}</code>
            </pre>
          </div>
        )
      ) : (
        <>
          <table>
            <thead>
              <tr>
                <th scope="col">Received</th>
                <th scope="col">Agent</th>
                <th scope="col">Provider</th>
                <th scope="col">External id</th>
                <th scope="col">Duration</th>
                <th scope="col">End reason</th>
                <th scope="col">Turns</th>
                <th scope="col">Recording</th>
              </tr>
            </thead>
            <tbody>
              {calls.data.items.map((call) => (
                <tr key={call.id}>
                  <td className="when">
                    <Link
                      to="/calls/$rowId"
                      params={{ rowId: call.call_import_row_id }}
                      search={{ import: call.call_import_id }}
                    >
                      {dateTime(call.received_at)}
                    </Link>
                  </td>
                  <td>
                    <AgentName id={call.agent_id} />
                  </td>
                  <td>{call.provider}</td>
                  <td className="url">
                    <code>{call.external_call_id}</code>
                  </td>
                  <td className="num">{call.duration_ms === null ? '–' : clock(call.duration_ms)}</td>
                  <td>{call.end_reason ?? <span className="muted">–</span>}</td>
                  <td className="num">
                    {call.turn_count > 0 ||
                    call.recording_status === 'none' ||
                    call.recording_status === 'failed' ? (
                      call.turn_count
                    ) : (
                      <span className="muted">from the recording</span>
                    )}
                  </td>
                  <td>
                    <Recording call={call} />
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
          <Pager
            page={calls.data.page}
            pageSize={PAGE_SIZE}
            total={calls.data.total}
            to={(page) => ({ to: '/production-calls', search: { ...search, page } })}
          />
        </>
      )}
    </section>
  );
};

const RECORDING: Record<ProductionCall['recording_status'], string> = {
  none: 'muted',
  pending: 'badge warn',
  running: 'badge warn',
  stored: 'badge good',
  failed: 'badge bad',
};

/** Where the call's recording is, and why it failed when it did. */
const Recording = ({ call }: { call: ProductionCall }) => (
  <>
    <span className={RECORDING[call.recording_status]}>{call.recording_status}</span>
    {call.recording_error && (
      <div className="error recording-error">
        {call.recording_error.message} <span className="muted">({call.recording_error.code})</span>
      </div>
    )}
  </>
);
