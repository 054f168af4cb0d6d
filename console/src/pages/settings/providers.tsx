import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { getRouteApi } from '@tanstack/react-router';
import type { AIProvider, AIProviderTestResult } from '@voice-eval/contract';
import { Pager } from '../../components/pager.tsx';
import { Loading, ProblemView } from '../../components/problem.tsx';
import { useClient } from '../../components/session-context.tsx';
import { count, dateTime, milliseconds } from '../../format.ts';
import { SettingsFrame, useIsAdmin } from './frame.tsx';
import { problemText } from './parts.tsx';

const route = getRouteApi('/app/settings/providers');
const PAGE_SIZE = 25;

/** The organization's AI provider credentials (keys masked), and a test of each for admins. */
export const ProvidersPage = () => {
  const client = useClient();
  const search = route.useSearch();
  const isAdmin = useIsAdmin();
  const providers = useQuery({
    queryKey: ['ai-providers', 'page', search.page ?? 1],
    queryFn: () => client.aiProviders.list({ page: search.page ?? 1, page_size: PAGE_SIZE }),
    placeholderData: keepPreviousData,
  });
  return (
    <SettingsFrame title="AI providers">
      <p className="muted">
        The credentials the judge, transcription and rubric parsing call models with. Keys are stored
        encrypted and shown masked.
      </p>
      {providers.isPending ? (
        <Loading what="AI providers" />
      ) : providers.isError ? (
        <ProblemView error={providers.error} what="AI providers" />
      ) : providers.data.total === 0 ? (
        <div className="empty">
          <h2>No AI providers yet</h2>
          <p>
            Without one, the server's own model settings are used, if it has any. An admin stores a credential
            with the SDK:
          </p>
          <pre>
            <code>{`await client.aiProviders.create({ provider: 'openai', name: 'OpenAI', api_key: 'sk-…' });`}</code>
          </pre>
        </div>
      ) : (
        <>
          <table>
            <thead>
              <tr>
                <th scope="col">Provider</th>
                <th scope="col">Endpoint</th>
                <th scope="col">Key</th>
                <th scope="col">Routing</th>
                <th scope="col">Last tested</th>
                {isAdmin && <th scope="col">Test</th>}
              </tr>
            </thead>
            <tbody>
              {providers.data.items.map((p) => (
                <tr key={p.id}>
                  <td>
                    <strong>{p.name}</strong> <span className="muted">{p.provider}</span>
                    {p.is_default && <span className="badge">default</span>}
                    {!p.is_active && <span className="badge bad">inactive</span>}
                  </td>
                  <td className="url">
                    {p.endpoint_url ? <code>{p.endpoint_url}</code> : <span className="muted">public</span>}
                  </td>
                  <td>
                    {p.api_key ? (
                      <code>{p.api_key}</code>
                    ) : (
                      <span className="muted">{p.gateway_managed ? 'from the gateway' : 'none'}</span>
                    )}
                  </td>
                  <td>
                    {p.effective_routing}
                    {p.routing_mode === 'inherit' && <span className="muted"> (inherited)</span>}
                  </td>
                  <td>
                    {p.last_tested_at ? dateTime(p.last_tested_at) : <span className="muted">never</span>}
                  </td>
                  {isAdmin && (
                    <td>
                      <TestProvider provider={p} />
                    </td>
                  )}
                </tr>
              ))}
            </tbody>
          </table>
          <Pager
            page={providers.data.page}
            pageSize={PAGE_SIZE}
            total={providers.data.total}
            to={(page) => ({ to: '/settings/providers', search: { page } })}
          />
        </>
      )}
    </SettingsFrame>
  );
};

const outcomeOf = (r: AIProviderTestResult): string =>
  r.ok
    ? `Works: ${count(r.models.length, 'model')} in ${milliseconds(r.latency_ms)}`
    : `Failed: ${r.error?.message ?? 'no answer'} (${r.error?.code ?? 'error'})`;

/** Lists the provider's models with the stored credential; the outcome is announced where it shows. */
const TestProvider = ({ provider }: { provider: AIProvider }) => {
  const client = useClient();
  const queryClient = useQueryClient();
  const test = useMutation({
    mutationFn: () => client.aiProviders.test(provider.id),
    onSettled: () => void queryClient.invalidateQueries({ queryKey: ['ai-providers'] }),
  });
  const r = test.data;
  return (
    <div className="actions">
      <button
        type="button"
        onClick={() => test.mutate()}
        disabled={test.isPending}
        aria-label={`Test ${provider.name}`}
      >
        Test
      </button>
      <output
        aria-live="polite"
        className={
          test.isPending ? undefined : test.isError || r?.ok === false ? 'bad' : r ? 'good' : undefined
        }
        title={r?.ok ? r.models.slice(0, 20).join(', ') : undefined}
      >
        {test.isPending ? 'Testing…' : test.isError ? problemText(test.error) : r ? outcomeOf(r) : ''}
      </output>
    </div>
  );
};
