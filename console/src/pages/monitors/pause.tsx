import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { Monitor } from '@voice-eval/contract';
import { useCanWrite, useClient } from '../../components/session-context.tsx';
import { problemText } from '../settings/parts.tsx';

/** Active or paused, as a badge. */
export const MonitorState = ({ monitor }: { monitor: Monitor }) =>
  monitor.is_active ? <span className="badge good">active</span> : <span className="badge warn">paused</span>;

/**
 * Pauses a monitor (calls that arrive meanwhile are not scored) or resumes it; shown to the roles
 * that may change monitors (MEMBER and up), with why it failed in a live region beside it.
 */
export const PauseButton = ({ monitor }: { monitor: Monitor }) => {
  const client = useClient();
  const queryClient = useQueryClient();
  const canWrite = useCanWrite();
  const toggle = useMutation({
    mutationFn: (is_active: boolean) => client.monitors.update(monitor.id, { is_active }),
    onSuccess: (updated) => {
      queryClient.setQueryData(['monitor', updated.id], updated);
      void queryClient.invalidateQueries({ queryKey: ['monitors'] });
    },
  });
  if (!canWrite) return null;
  // the answer is newer than the list's copy until the list is refetched
  const shown = toggle.data && toggle.data.updated_at >= monitor.updated_at ? toggle.data : monitor;
  const verb = shown.is_active ? 'Pause' : 'Resume';
  return (
    <span className="actions">
      <button
        type="button"
        // not `disabled` while pending: a disabled button would drop the keyboard focus
        aria-disabled={toggle.isPending}
        onClick={() => toggle.isPending || toggle.mutate(!shown.is_active)}
        aria-label={`${verb} ${monitor.name}`}
      >
        {verb}
      </button>
      <output aria-live="polite" className="bad">
        {toggle.isError ? problemText(toggle.error) : ''}
      </output>
    </span>
  );
};
