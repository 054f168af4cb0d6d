import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { WebhookEndpoint } from '@voice-eval/contract';
import { useClient } from '../../components/session-context.tsx';
import { dateTime } from '../../format.ts';
import { ConfirmButton, problemText } from './parts.tsx';

/** What an action on an endpoint came to, for the page's live region. */
export type Outcome = { text: string; bad?: boolean };

/** The name an endpoint goes by in buttons' labels: its description, else its URL. */
export const endpointName = (e: WebhookEndpoint) => e.description || e.url;

/**
 * An endpoint's actions (admins only): enable or disable, ping, rotate the secret (the new one is
 * handed to `onSecret`, to be shown once) and delete, the last two after a confirmation.
 */
export const EndpointActions = ({
  endpoint: e,
  onOutcome,
  onSecret,
  onDeleted,
}: {
  endpoint: WebhookEndpoint;
  onOutcome: (outcome: Outcome) => void;
  onSecret: (secret: string) => void;
  onDeleted?: () => void;
}) => {
  const client = useClient();
  const queryClient = useQueryClient();
  const failed = (error: unknown) => onOutcome({ text: problemText(error), bad: true });
  const changed = (updated: WebhookEndpoint) => {
    queryClient.setQueryData(['webhook-endpoint', updated.id], updated);
    void queryClient.invalidateQueries({ queryKey: ['webhook-endpoints'] });
  };
  const toggle = useMutation({
    mutationFn: () => client.webhookEndpoints.update(e.id, { enabled: !e.enabled }),
    onSuccess: (updated) => {
      changed(updated);
      onOutcome({
        text: updated.enabled
          ? 'Enabled: events are sent again.'
          : 'Disabled: nothing is sent until enabled.',
      });
    },
    onError: failed,
  });
  const ping = useMutation({
    mutationFn: () => client.webhookEndpoints.ping(e.id),
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: ['webhook-deliveries', e.id] });
      onOutcome({ text: 'Ping sent: its delivery shows in the endpoint’s log.' });
    },
    onError: failed,
  });
  const rotate = useMutation({
    mutationFn: () => client.webhookEndpoints.rotateSecret(e.id),
    onSuccess: ({ secret, ...updated }) => {
      changed(updated);
      onSecret(secret);
      onOutcome({ text: 'Secret rotated: the old one no longer signs.' });
    },
    onError: failed,
  });
  const remove = useMutation({
    mutationFn: () => client.webhookEndpoints.delete(e.id),
    onSuccess: () => {
      queryClient.removeQueries({ queryKey: ['webhook-endpoint', e.id] });
      void queryClient.invalidateQueries({ queryKey: ['webhook-endpoints'] });
      onOutcome({ text: `Deleted ${e.url} and its delivery log.` });
      onDeleted?.();
    },
    onError: failed,
  });
  const name = endpointName(e);
  const busy = toggle.isPending || ping.isPending || rotate.isPending || remove.isPending;
  return (
    <div className="actions">
      <button
        type="button"
        disabled={busy || !e.enabled}
        aria-label={`Ping ${name}`}
        onClick={() => ping.mutate()}
      >
        Ping
      </button>
      <button
        type="button"
        disabled={busy}
        aria-label={`${e.enabled ? 'Disable' : 'Enable'} ${name}`}
        onClick={() => toggle.mutate()}
      >
        {e.enabled ? 'Disable' : 'Enable'}
      </button>
      <ConfirmButton
        label="Rotate secret"
        subject={`of ${name}`}
        question="Replace the signing secret? Receivers must verify with the new one."
        disabled={busy}
        onConfirm={() => rotate.mutate()}
      />
      <ConfirmButton
        label="Delete"
        subject={name}
        question={`Delete ${e.url} and its delivery log?`}
        disabled={busy}
        onConfirm={() => remove.mutate()}
      />
    </div>
  );
};

/** Whether it is sent to, and why not: disabled by hand or by the server, failing since when. */
export const EndpointState = ({ endpoint: e }: { endpoint: WebhookEndpoint }) => (
  <>
    {e.enabled ? <span className="badge good">enabled</span> : <span className="badge bad">disabled</span>}
    {e.disabled_reason && <div className="error">{e.disabled_reason}</div>}
    {e.failing_since && <div className="error">failing since {dateTime(e.failing_since)}</div>}
  </>
);
