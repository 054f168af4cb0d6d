import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { getRouteApi } from '@tanstack/react-router';
import type { Workspace } from '@voice-eval/contract';
import { useEffect, useRef, useState } from 'react';
import { Pager } from '../../components/pager.tsx';
import { Loading, ProblemView } from '../../components/problem.tsx';
import { useClient, useMe } from '../../components/session-context.tsx';
import { dateTime } from '../../format.ts';
import { SettingsFrame, useIsAdmin } from './frame.tsx';
import { problemText } from './parts.tsx';
import { CreateWorkspace } from './workspace-form.tsx';

const route = getRouteApi('/app/settings/workspaces');
const PAGE_SIZE = 25;

/** The organization's workspaces; admins create them, rename them and move the default. */
export const WorkspacesPage = () => {
  const client = useClient();
  const search = route.useSearch();
  const isAdmin = useIsAdmin();
  const [outcome, setOutcome] = useState('');
  const workspaces = useQuery({
    queryKey: ['workspaces', 'page', search.page ?? 1],
    queryFn: () => client.workspaces.list({ page: search.page ?? 1, page_size: PAGE_SIZE }),
    placeholderData: keepPreviousData,
  });
  return (
    <SettingsFrame title="Workspaces">
      <p className="muted">
        Each workspace keeps its own agents, suites, metrics, runs and imports. The switcher at the top
        changes the one you work in.
      </p>
      {isAdmin && <CreateWorkspace onCreated={(w) => setOutcome(`Workspace “${w.name}” created.`)} />}
      <output className="good">{outcome}</output>
      {workspaces.isPending ? (
        <Loading what="workspaces" />
      ) : workspaces.isError ? (
        <ProblemView error={workspaces.error} what="workspaces" />
      ) : workspaces.data.total === 0 ? (
        <p className="empty">No workspaces{isAdmin ? ': create the first one above.' : '.'}</p>
      ) : (
        <>
          <table>
            <thead>
              <tr>
                <th scope="col">Workspace</th>
                <th scope="col">Slug</th>
                <th scope="col">Created</th>
                {isAdmin && (
                  <th scope="col">
                    <span className="visually-hidden">Actions</span>
                  </th>
                )}
              </tr>
            </thead>
            <tbody>
              {workspaces.data.items.map((w) => (
                <WorkspaceRow key={w.id} workspace={w} isAdmin={isAdmin === true} onOutcome={setOutcome} />
              ))}
            </tbody>
          </table>
          <Pager
            page={workspaces.data.page}
            pageSize={PAGE_SIZE}
            total={workspaces.data.total}
            to={(page) => ({ to: '/settings/workspaces', search: { page } })}
          />
        </>
      )}
    </SettingsFrame>
  );
};

const WorkspaceRow = ({
  workspace: w,
  isAdmin,
  onOutcome,
}: {
  workspace: Workspace;
  isAdmin: boolean;
  onOutcome: (text: string) => void;
}) => {
  const client = useClient();
  const queryClient = useQueryClient();
  const me = useMe();
  const [renaming, setRenaming] = useState(false);
  const input = useRef<HTMLInputElement>(null);
  const renameButton = useRef<HTMLButtonElement>(null);
  const update = useMutation({
    mutationFn: (body: { name: string } | { is_default: true }) => client.workspaces.update(w.id, body),
    onSuccess: (updated, body) => {
      void queryClient.invalidateQueries({ queryKey: ['workspaces'] });
      void queryClient.invalidateQueries({ queryKey: ['me'] });
      onOutcome(
        'name' in body
          ? `Renamed to “${updated.name}”.`
          : `“${updated.name}” is now the organization's default workspace.`,
      );
      if ('name' in body) {
        setRenaming(false);
        requestAnimationFrame(() => renameButton.current?.focus());
      }
    },
  });
  useEffect(() => {
    if (renaming) input.current?.focus();
  }, [renaming]);
  const stopRenaming = () => {
    setRenaming(false);
    update.reset();
    requestAnimationFrame(() => renameButton.current?.focus());
  };
  return (
    <tr>
      <td>
        {renaming ? (
          <form
            className="inline-form"
            aria-label={`Rename ${w.name}`}
            onSubmit={(e) => {
              e.preventDefault();
              update.mutate({ name: new FormData(e.currentTarget).get('name')?.toString() ?? '' });
            }}
            onKeyDown={(e) => e.key === 'Escape' && stopRenaming()}
          >
            <label>
              New name <input ref={input} name="name" defaultValue={w.name} required maxLength={100} />
            </label>
            <button type="submit" disabled={update.isPending}>
              Save
            </button>
            <button type="button" onClick={stopRenaming}>
              Cancel
            </button>
          </form>
        ) : (
          <strong>{w.name}</strong>
        )}
        {w.is_default && <span className="badge">default</span>}
        {me.data?.workspace.id === w.id && <span className="badge good">you are here</span>}
        {update.isError && <div className="error">{problemText(update.error)}</div>}
      </td>
      <td>
        <code>{w.slug}</code>
      </td>
      <td>{dateTime(w.created_at)}</td>
      {isAdmin && (
        <td>
          <div className="actions">
            {!renaming && (
              <button
                type="button"
                ref={renameButton}
                aria-label={`Rename ${w.name}`}
                onClick={() => setRenaming(true)}
              >
                Rename
              </button>
            )}
            {!w.is_default && (
              <button
                type="button"
                aria-label={`Make default: ${w.name}`}
                disabled={update.isPending}
                onClick={() => update.mutate({ is_default: true })}
              >
                Make default
              </button>
            )}
          </div>
        </td>
      )}
    </tr>
  );
};
