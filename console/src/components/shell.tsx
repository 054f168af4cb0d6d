import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Link, Outlet, useNavigate, useRouterState } from '@tanstack/react-router';
import { useEffect } from 'react';
import { useMe, useSession } from './session-context.tsx';

/** The console's sections, in the order of the main navigation. */
const SECTIONS = [
  { to: '/suites', label: 'Suites' },
  { to: '/runs', label: 'Runs' },
  { to: '/imports', label: 'Imports' },
  { to: '/evaluations', label: 'Evaluations' },
  { to: '/clusters', label: 'Failure clusters' },
  { to: '/production-calls', label: 'Production calls' },
  { to: '/monitors', label: 'Monitors' },
  { to: '/metrics', label: 'Metrics' },
  { to: '/review', label: 'Review' },
  { to: '/agents', label: 'Agents' },
  { to: '/settings', label: 'Settings' },
] as const;

/** The frame of every signed-in page: navigation, organization and workspace, sign-out. */
export const Shell = () => {
  const session = useSession();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const href = useRouterState({ select: (s) => s.location.href });
  const me = useMe();
  const workspaces = useQuery({
    queryKey: ['workspaces'],
    queryFn: () => session.client.workspaces.list({ page_size: 100 }),
  });

  // an expired session (refresh refused) sends to the login, and back here after it
  useEffect(() => {
    if (session.state === 'signed-out') void navigate({ to: '/login', search: { redirect: href } });
  }, [session.state, navigate, href]);

  const switchTo = async (change: () => Promise<void> | void) => {
    await change();
    queryClient.clear();
    await navigate({ to: '/runs' });
  };

  const user = me.data;
  return (
    <div className="shell">
      <header className="topbar">
        <Link to="/runs" className="brand">
          voice-eval
        </Link>
        <nav aria-label="Main">
          {SECTIONS.map(({ to, label }) => (
            <Link key={to} to={to} activeProps={{ 'aria-current': 'page' }}>
              {label}
            </Link>
          ))}
        </nav>
        <div className="account">
          {user && user.memberships.length > 1 && session.mode === 'password' && (
            <label>
              <span className="visually-hidden">Organization</span>
              <select
                value={user.organization.id}
                onChange={(e) => void switchTo(() => session.switchOrganization(e.target.value))}
              >
                {user.memberships.map((m) => (
                  <option key={m.organization_id} value={m.organization_id}>
                    {m.organization_name}
                  </option>
                ))}
              </select>
            </label>
          )}
          {user && user.memberships.length <= 1 && <span className="muted">{user.organization.name}</span>}
          {workspaces.data && workspaces.data.items.length > 0 && (
            <label>
              <span className="visually-hidden">Workspace</span>
              <select
                value={user?.workspace.id ?? ''}
                onChange={(e) => void switchTo(() => session.setWorkspace(e.target.value))}
              >
                {workspaces.data.items.map((w) => (
                  <option key={w.id} value={w.id}>
                    {w.name}
                  </option>
                ))}
              </select>
            </label>
          )}
          <span className="muted who">
            {user?.user?.email ?? (user?.api_key ? `API key ${user.api_key.prefix}…` : '')}
            {user ? ` · ${user.role}` : ''}
          </span>
          <button
            type="button"
            className="link"
            onClick={() =>
              void session.logout().then(() => {
                queryClient.clear();
                return navigate({ to: '/login', search: {} });
              })
            }
          >
            Sign out
          </button>
        </div>
      </header>
      <main id="main">
        <Outlet />
      </main>
    </div>
  );
};
