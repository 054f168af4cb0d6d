import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { getRouteApi, useNavigate } from '@tanstack/react-router';
import type { ApiKey } from '@voice-eval/contract';
import { useState } from 'react';
import { Pager } from '../../components/pager.tsx';
import { Loading, ProblemView } from '../../components/problem.tsx';
import { useClient, useMe } from '../../components/session-context.tsx';
import { dateTime } from '../../format.ts';
import { AdminOnly, SettingsFrame } from './frame.tsx';
import { ConfirmButton, problemText, ShownOnce } from './parts.tsx';

const route = getRouteApi('/app/settings/api-keys');
const PAGE_SIZE = 25;

/** The organization's API keys (never the keys themselves): generate one, shown once; revoke. */
export const ApiKeysPage = () => (
  <SettingsFrame title="API keys">
    <p className="muted">
      An organization API key signs in scripts, CI and the SDK with the ADMIN role, in any workspace of the
      organization.
    </p>
    <AdminOnly what="API keys">
      <ApiKeys />
    </AdminOnly>
  </SettingsFrame>
);

const ApiKeys = () => {
  const client = useClient();
  const queryClient = useQueryClient();
  const search = route.useSearch();
  const navigate = useNavigate();
  const me = useMe();
  const [created, setCreated] = useState<string | null>(null);
  const [outcome, setOutcome] = useState('');
  const keys = useQuery({
    queryKey: ['api-keys', search.revoked === true, search.page ?? 1],
    queryFn: () =>
      client.apiKeys.list({
        include_revoked: search.revoked === true,
        page: search.page ?? 1,
        page_size: PAGE_SIZE,
      }),
    placeholderData: keepPreviousData,
  });
  const generate = useMutation({
    mutationFn: (name: string) => client.auth.generateKey(name ? { name } : {}),
    onSuccess: (key) => {
      setCreated(key.key);
      setOutcome('');
      void queryClient.invalidateQueries({ queryKey: ['api-keys'] });
    },
  });
  const revoke = useMutation({
    mutationFn: (key: ApiKey) => client.apiKeys.revoke(key.id),
    onSuccess: (_, key) => {
      setOutcome(`“${key.name}” (${key.prefix}…) is revoked: it no longer signs in.`);
      void queryClient.invalidateQueries({ queryKey: ['api-keys'] });
    },
  });
  // only a person signed in with a password may generate keys (an API key may not make another)
  const interactive = me.data?.principal_type === 'user';
  return (
    <>
      {interactive && (
        <form
          className="inline-form"
          aria-label="Generate an API key"
          onSubmit={(e) => {
            e.preventDefault();
            const form = e.currentTarget;
            const name = new FormData(form).get('name')?.toString().trim() ?? '';
            generate.mutate(name, { onSuccess: () => form.reset() });
          }}
        >
          <label>
            Name <input name="name" maxLength={100} placeholder="API key" />
          </label>
          <button type="submit" disabled={generate.isPending}>
            Generate a key
          </button>
          {generate.isError && <span className="error">{problemText(generate.error)}</span>}
        </form>
      )}
      <ShownOnce what="The new API key" value={created} onDone={() => setCreated(null)} />
      <div className="page-head">
        <label>
          <input
            type="checkbox"
            checked={search.revoked === true}
            onChange={(e) =>
              void navigate({
                to: '/settings/api-keys',
                search: { revoked: e.target.checked || undefined },
              })
            }
          />{' '}
          Show revoked keys
        </label>
        <output className="good">{outcome}</output>
      </div>
      {revoke.isError && <ProblemView error={revoke.error} what="API key" />}
      {keys.isPending ? (
        <Loading what="API keys" />
      ) : keys.isError ? (
        <ProblemView error={keys.error} what="API keys" />
      ) : keys.data.total === 0 ? (
        <div className="empty">
          <h2>No API keys{search.revoked ? '' : ' in use'}</h2>
          <p>
            {interactive
              ? 'Generate one above; it is shown once, so keep it somewhere safe.'
              : 'A person signed in with a password generates them here.'}
          </p>
        </div>
      ) : (
        <>
          <table>
            <thead>
              <tr>
                <th scope="col">Name</th>
                <th scope="col">Prefix</th>
                <th scope="col">Created</th>
                <th scope="col">Last used</th>
                <th scope="col">
                  <span className="visually-hidden">Revoke</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {keys.data.items.map((key) => (
                <tr key={key.id}>
                  <td>
                    {key.name}
                    {me.data?.api_key?.id === key.id && <span className="badge">this session</span>}
                  </td>
                  <td>
                    <code>{key.prefix}…</code>
                  </td>
                  <td>{dateTime(key.created_at)}</td>
                  <td>
                    {key.last_used_at ? dateTime(key.last_used_at) : <span className="muted">never</span>}
                  </td>
                  <td>
                    {key.revoked_at ? (
                      <span className="badge bad">revoked {dateTime(key.revoked_at)}</span>
                    ) : (
                      <ConfirmButton
                        label="Revoke"
                        subject={key.name}
                        question={
                          me.data?.api_key?.id === key.id
                            ? `Revoke “${key.name}”, the key you are signed in with? You will be signed out.`
                            : `Revoke “${key.name}”? Whatever uses it stops signing in.`
                        }
                        disabled={revoke.isPending}
                        onConfirm={() => revoke.mutate(key)}
                      />
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
          <Pager
            page={keys.data.page}
            pageSize={PAGE_SIZE}
            total={keys.data.total}
            to={(page) => ({ to: '/settings/api-keys', search: { ...search, page } })}
          />
        </>
      )}
    </>
  );
};
