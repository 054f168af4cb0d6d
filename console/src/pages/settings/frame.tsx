import { Link } from '@tanstack/react-router';
import type { ReactNode } from 'react';
import { Loading } from '../../components/problem.tsx';
import { useMe } from '../../components/session-context.tsx';

/**
 * Whether the signed-in role is ADMIN or OWNER: the API keeps webhook endpoints, API keys, new
 * and renamed workspaces and provider tests to them (`undefined` while the role is loading).
 */
export const useIsAdmin = (): boolean | undefined => {
  const role = useMe().data?.role;
  return role === undefined ? undefined : role === 'ADMIN' || role === 'OWNER';
};

/** Every settings page: the settings' own navigation, the page's title and what it holds. */
export const SettingsFrame = ({
  title,
  head,
  children,
}: {
  title: string;
  head?: ReactNode;
  children: ReactNode;
}) => (
  <section>
    <nav className="subnav" aria-label="Settings">
      <Link to="/settings/workspaces" activeProps={{ 'aria-current': 'page' }}>
        Workspaces
      </Link>
      <Link to="/settings/providers" activeProps={{ 'aria-current': 'page' }}>
        AI providers
      </Link>
      <Link to="/settings/api-keys" activeProps={{ 'aria-current': 'page' }}>
        API keys
      </Link>
      <Link to="/settings/webhooks" activeProps={{ 'aria-current': 'page' }}>
        Webhooks
      </Link>
    </nav>
    <div className="page-head">
      <h1>{title}</h1>
      {head}
    </div>
    {children}
  </section>
);

/**
 * What an admin-only page holds, for admins; others are told who can see it instead of being
 * shown the API's refusal.
 */
export const AdminOnly = ({ what, children }: { what: string; children: ReactNode }) => {
  const me = useMe();
  const isAdmin = useIsAdmin();
  if (isAdmin === undefined) return <Loading what="your role" />;
  if (isAdmin) return <>{children}</>;
  return (
    <div className="empty">
      <h2>Only admins manage {what}</h2>
      <p>
        The organization's ADMIN and OWNER members see and change {what}; you are signed in as {me.data?.role}
        . Ask one of them if you need a change here.
      </p>
    </div>
  );
};
