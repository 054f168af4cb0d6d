import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { Workspace } from '@voice-eval/contract';
import { useClient } from '../../components/session-context.tsx';
import { problemText } from './parts.tsx';

/** A new workspace (admins): its name, and a slug unless the one made from the name will do. */
export const CreateWorkspace = ({ onCreated }: { onCreated: (w: Workspace) => void }) => {
  const client = useClient();
  const queryClient = useQueryClient();
  const create = useMutation({
    mutationFn: (form: FormData) => {
      const slug = form.get('slug')?.toString().trim();
      return client.workspaces.create({
        name: form.get('name')?.toString() ?? '',
        ...(slug ? { slug } : {}),
      });
    },
    onSuccess: (w) => {
      void queryClient.invalidateQueries({ queryKey: ['workspaces'] });
      onCreated(w);
    },
  });
  return (
    <form
      className="inline-form"
      aria-label="Create a workspace"
      onSubmit={(e) => {
        e.preventDefault();
        const form = e.currentTarget;
        create.mutate(new FormData(form), { onSuccess: () => form.reset() });
      }}
    >
      <label>
        Name <input name="name" required maxLength={100} />
      </label>
      <label>
        Slug <input name="slug" maxLength={64} pattern="[a-z0-9]+(-[a-z0-9]+)*" placeholder="from the name" />
      </label>
      <button type="submit" disabled={create.isPending}>
        Create workspace
      </button>
      {create.isError && <span className="error">{problemText(create.error)}</span>}
    </form>
  );
};
