import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { Metric } from '@voice-eval/contract';
import { useCanWrite, useClient } from '../../components/session-context.tsx';

/**
 * Promotes a draft (and its children) to active, so evaluations can score it; shown to roles that
 * may write, on top-level drafts only (a child follows its parent).
 */
export const PromoteButton = ({
  metric,
  onPromoted,
  onError,
}: {
  metric: Metric;
  onPromoted: (metric: Metric) => void;
  onError: (error: unknown) => void;
}) => {
  const client = useClient();
  const queryClient = useQueryClient();
  const canWrite = useCanWrite();
  const promote = useMutation({
    mutationFn: () => client.metrics.promote(metric.id),
    onSuccess: (promoted) => {
      queryClient.setQueryData(['metric', promoted.id], promoted);
      void queryClient.invalidateQueries({ queryKey: ['metrics'] });
      onPromoted(promoted);
    },
    onError,
  });
  if (!canWrite || metric.lifecycle !== 'draft' || metric.parent_metric_id !== null) return null;
  return (
    <button
      type="button"
      onClick={() => promote.mutate()}
      disabled={promote.isPending}
      aria-label={`Promote ${metric.name}`}
    >
      Promote
    </button>
  );
};
