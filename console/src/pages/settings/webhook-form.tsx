import { useMutation, useQueryClient } from '@tanstack/react-query';
import { SUBSCRIBABLE_EVENT_TYPES, type WebhookEndpointWithSecret } from '@voice-eval/contract';
import { useState } from 'react';
import { ProblemView } from '../../components/problem.tsx';
import { useClient } from '../../components/session-context.tsx';

type EventType = (typeof SUBSCRIBABLE_EVENT_TYPES)[number];

/** What each event says, beside its checkbox. */
const EVENTS: Record<EventType, string> = {
  'suite_run.completed': 'a suite run finished and was scored',
  'suite_run.failed': 'a suite run could not finish',
  'evaluation.completed': 'an evaluation scored every call',
  'evaluation.failed': 'an evaluation failed',
  'call_import.transcription.completed': 'an import’s transcriptions all finished',
  'metric_clusters.completed': 'a failure-cluster report is ready',
  'monitor.alert.fired': 'a monitor’s rule fired on production calls',
  'review_queue.completed': 'every call of a review queue was labelled',
};

/** A new endpoint: its URL, a description and the events it receives; the answer carries its secret. */
export const CreateEndpoint = ({
  onCreated,
}: {
  onCreated: (created: WebhookEndpointWithSecret) => void;
}) => {
  const client = useClient();
  const queryClient = useQueryClient();
  const [events, setEvents] = useState<Set<EventType>>(new Set(['suite_run.completed', 'suite_run.failed']));
  const create = useMutation({
    mutationFn: (form: FormData) =>
      client.webhookEndpoints.create({
        url: form.get('url')?.toString().trim() ?? '',
        description: form.get('description')?.toString().trim() ?? '',
        events: SUBSCRIBABLE_EVENT_TYPES.filter((t) => events.has(t)),
      }),
    onSuccess: (created) => {
      void queryClient.invalidateQueries({ queryKey: ['webhook-endpoints'] });
      onCreated(created);
    },
  });
  const toggle = (type: EventType) => {
    const next = new Set(events);
    if (next.has(type)) next.delete(type);
    else next.add(type);
    setEvents(next);
  };
  return (
    <form
      className="panel-form"
      aria-label="Add a webhook endpoint"
      onSubmit={(e) => {
        e.preventDefault();
        create.mutate(new FormData(e.currentTarget));
      }}
    >
      <label className="wide">
        URL <input name="url" type="url" required maxLength={2048} placeholder="https://example.com/hooks" />
      </label>
      <label className="wide">
        Description <input name="description" maxLength={500} />
      </label>
      <fieldset>
        <legend>Events</legend>
        {SUBSCRIBABLE_EVENT_TYPES.map((type) => (
          <label key={type}>
            <input type="checkbox" checked={events.has(type)} onChange={() => toggle(type)} />{' '}
            <code>{type}</code> <span className="muted">{EVENTS[type] ?? ''}</span>
          </label>
        ))}
      </fieldset>
      <button type="submit" disabled={create.isPending || events.size === 0}>
        Create endpoint
      </button>
      {events.size === 0 && <p className="muted">Pick at least one event.</p>}
      {create.isError && <ProblemView error={create.error} what="webhook endpoint" />}
    </form>
  );
};
