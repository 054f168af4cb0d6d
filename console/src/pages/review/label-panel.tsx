import { useMutation, useQuery } from '@tanstack/react-query';
import type { Metric, ReviewItem } from '@voice-eval/contract';
import { useEffect, useRef, useState } from 'react';
import { ProblemView } from '../../components/problem.tsx';
import { useClient, useMe } from '../../components/session-context.tsx';
import type { Shortcut } from '../../components/shortcuts-dialog.tsx';
import { type CallRef, useCallVerdicts } from '../call.tsx';
import { choose, type LabelValue, labelKindOf, proposalOf, typedValue } from './choices.ts';
import { MetricChoice } from './metric-choice.tsx';

/** The labelling keys, for the help dialog (the call's own keys are listed before them). */
export const LABEL_KEYS: readonly Shortcut[] = [
  { keys: '1–9', does: 'Choose value N of the current metric (1 Yes, 2 No); on a number, start typing it' },
  { keys: '↑ ↓', does: 'Previous or next metric' },
  { keys: '0', does: "Back to the judge's value" },
  { keys: 'n', does: 'Write a note (Esc leaves it)' },
  { keys: 'Enter', does: 'Save the labels, mark the call done and take the next (Ctrl+Enter in the note)' },
];

const typing = (target: EventTarget | null) =>
  target instanceof Element && target.closest('input, select, textarea, [contenteditable]') !== null;

/**
 * The labels of one call: every metric of the queue with the judge's value proposed (or the label
 * you gave before), to confirm or correct, and a note. Saving labels the call on every metric,
 * marks it done, and hands the next call to `onDone` (null when none is left for you).
 */
export const LabelPanel = ({
  queueId,
  item,
  call,
  metrics,
  onDone,
  onRelease,
}: {
  queueId: string;
  item: ReviewItem;
  call: CallRef;
  metrics: Metric[];
  onDone: (next: ReviewItem | null) => void;
  onRelease: () => void;
}) => {
  const client = useClient();
  const me = useMe().data;
  const who = me?.user?.email ?? (me?.api_key ? `api_key:${me.api_key.prefix}` : undefined);
  const rowId = item.call_import_row_id;
  const { verdicts } = useCallVerdicts(call);
  const mine = useQuery({
    queryKey: ['my-labels', rowId, who, metrics.map((m) => m.id)],
    queryFn: async () => {
      const pages = await Promise.all(
        metrics.map((m) => client.metrics.labels(m.id, { call_import_row_id: rowId, labelled_by: who })),
      );
      return new Map(pages.flatMap((page) => page.items.map((label) => [label.metric_id, label] as const)));
    },
    enabled: who !== undefined,
  });
  const [picked, setPicked] = useState<Record<string, LabelValue>>({});
  const [texts, setTexts] = useState<Record<string, string>>({});
  const [note, setNote] = useState<string | undefined>();
  const [current, setCurrent] = useState(0);
  const [missing, setMissing] = useState<string | undefined>();
  const inputs = useRef(new Map<string, HTMLInputElement>());
  const noteRef = useRef<HTMLTextAreaElement>(null);

  const results = verdicts.data?.items[0]?.results ?? [];
  const rows = metrics.map((metric) => {
    const kind = labelKindOf(metric);
    const proposal = proposalOf(kind, results.find((r) => r.metric_id === metric.id)?.value);
    const given = mine.data?.get(metric.id)?.value;
    const typed = texts[metric.id];
    const value = typed !== undefined ? typedValue(kind, typed) : (picked[metric.id] ?? given ?? proposal);
    const text =
      typed ?? (value === undefined ? '' : Array.isArray(value) ? value.join(', ') : String(value));
    return { metric, kind, proposal, value, text };
  });
  const noteText = note ?? [...(mine.data?.values() ?? [])].find((l) => l.note)?.note ?? '';

  const save = useMutation({
    mutationFn: async (labels: Array<{ metricId: string; value: LabelValue }>) => {
      await Promise.all(
        labels.map(({ metricId, value }) =>
          client.metrics.setLabel(metricId, rowId, { value, note: noteText }),
        ),
      );
      await client.reviewQueues.complete(queueId, item.id);
      return (await client.reviewQueues.next(queueId)).item;
    },
    onSuccess: onDone,
  });
  const release = useMutation({
    mutationFn: () => client.reviewQueues.release(queueId, item.id),
    onSuccess: onRelease,
  });

  const submit = () => {
    if (save.isPending) return;
    const unset = rows.findIndex((row) => row.value === undefined);
    if (unset >= 0) {
      setCurrent(unset);
      setMissing(rows[unset]?.metric.name);
      return;
    }
    setMissing(undefined);
    save.mutate(rows.map((row) => ({ metricId: row.metric.id, value: row.value as LabelValue })));
  };
  const pick = (metricId: string, value: LabelValue) => {
    setMissing(undefined);
    setPicked((all) => ({ ...all, [metricId]: value }));
    setTexts(({ [metricId]: _, ...rest }) => rest);
  };

  const onKey = (event: KeyboardEvent) => {
    if (typing(event.target) || event.metaKey || event.ctrlKey || event.altKey) return;
    if (document.querySelector('dialog[open]')) return;
    const row = rows[current];
    const target = event.target as Element;
    let handled = true;
    if (/^[1-9]$/.test(event.key) && row) {
      if (row.kind.kind === 'choice') {
        const next = choose(row.kind, row.value, Number(event.key));
        if (next !== undefined) pick(row.metric.id, next);
      } else {
        if (row.kind.kind === 'number') setTexts((all) => ({ ...all, [row.metric.id]: event.key }));
        const input = inputs.current.get(row.metric.id);
        setTimeout(() => input?.focus());
      }
    } else if (event.key === '0' && row) {
      setPicked(({ [row.metric.id]: _, ...rest }) => rest);
      setTexts(({ [row.metric.id]: _, ...rest }) => rest);
    } else if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
      const step = event.key === 'ArrowDown' ? 1 : -1;
      setCurrent((at) => Math.min(Math.max(at + step, 0), rows.length - 1));
    } else if (event.key === 'n') {
      noteRef.current?.focus();
    } else if (event.key === 'Enter' && !target.closest('button, a, summary')) {
      submit();
    } else handled = false;
    if (handled) event.preventDefault();
  };
  const latest = useRef(onKey);
  useEffect(() => {
    latest.current = onKey;
  });
  useEffect(() => {
    const listener = (event: KeyboardEvent) => latest.current(event);
    document.addEventListener('keydown', listener);
    return () => document.removeEventListener('keydown', listener);
  }, []);

  return (
    <form
      className="label-panel"
      aria-labelledby="labels-title"
      onSubmit={(e) => {
        e.preventDefault();
        submit();
      }}
    >
      <h2 id="labels-title">Your labels</h2>
      <p className="muted">
        The judge's verdicts are chosen to start with: confirm them, or correct them with 1–9 on the metric
        marked (↑ ↓ move).
      </p>
      <ol className="label-metrics">
        {rows.map((row, i) => (
          <MetricChoice
            key={row.metric.id}
            {...row}
            current={i === current}
            inputRef={(input) => {
              if (input) inputs.current.set(row.metric.id, input);
              else inputs.current.delete(row.metric.id);
            }}
            onPick={(value) => pick(row.metric.id, value)}
            onType={(text) => setTexts((all) => ({ ...all, [row.metric.id]: text }))}
            onFocus={() => setCurrent(i)}
          />
        ))}
      </ol>
      <div className="note">
        <label htmlFor={`note-${item.id}`}>Note</label> <kbd>n</kbd>
        <textarea
          id={`note-${item.id}`}
          ref={noteRef}
          rows={3}
          value={noteText}
          aria-keyshortcuts="n"
          onChange={(e) => setNote(e.target.value)}
          onKeyDown={(e) => {
            if (e.key === 'Escape') e.currentTarget.blur();
            if (e.key === 'Enter' && (e.ctrlKey || e.metaKey)) e.currentTarget.form?.requestSubmit();
          }}
        />
      </div>
      <div className="actions">
        <button type="submit" disabled={save.isPending} aria-keyshortcuts="Enter">
          {save.isPending ? 'Saving…' : 'Save and next'}
        </button>
        <kbd>Enter</kbd>
        <button type="button" onClick={() => release.mutate()} disabled={release.isPending}>
          Give back and leave
        </button>
      </div>
      {missing && (
        <p className="error" role="alert">
          Choose a value for {missing} first.
        </p>
      )}
      {save.isError && <ProblemView error={save.error} what="labels" />}
      {release.isError && <ProblemView error={release.error} what="call" />}
    </form>
  );
};
