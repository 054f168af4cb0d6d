import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import type { ReviewQueue, ReviewQueueCreateBody } from '@voice-eval/contract';
import { useState } from 'react';
import { ProblemView } from '../../components/problem.tsx';
import { useClient } from '../../components/session-context.tsx';
import { dateTime } from '../../format.ts';

type Kind = ReviewQueue['source']['kind'];
const KINDS: Record<Kind, string> = {
  evaluation: 'An evaluation',
  suite_run: 'A suite run',
  call_import: 'A call import',
};
export const STRATEGY_NAMES: Record<ReviewQueue['strategy'], string> = {
  random: 'at random',
  flagged_first: 'flagged calls first',
  disagreement_first: 'disagreements first',
};
/** The most recent sources offered. */
const RECENT = 50;

type Option = { id: string; label: string; metricIds?: string[] };

/** The recent sources of a kind, as options: what each is and how many calls it has. */
const useSources = (kind: Kind) => {
  const client = useClient();
  return useQuery({
    queryKey: ['review-sources', kind],
    queryFn: async (): Promise<Option[]> => {
      if (kind === 'evaluation') {
        const page = await client.evaluations.list({ status: 'completed', page_size: RECENT });
        return page.items.map((e) => ({
          id: e.id,
          label: `${dateTime(e.created_at)} · ${e.completed_rows} calls scored`,
          metricIds: e.metric_ids,
        }));
      }
      if (kind === 'suite_run') {
        const page = await client.suiteRuns.list({ status: 'completed', page_size: RECENT });
        return page.items
          .filter((r) => r.evaluation_id !== null)
          .map((r) => ({
            id: r.id,
            label: `${r.suite_name} · ${dateTime(r.created_at)} · ${r.calls_total} calls`,
          }));
      }
      const page = await client.callImports.list({ page_size: RECENT });
      return page.items.map((i) => ({
        id: i.id,
        label: `${i.original_filename ?? i.dataset ?? 'Import'} · ${dateTime(i.created_at)} · ${i.total_rows} calls`,
      }));
    },
  });
};

const sourceOf = (kind: Kind, id: string): ReviewQueueCreateBody['source'] =>
  kind === 'evaluation'
    ? { kind, evaluation_id: id }
    : kind === 'suite_run'
      ? { kind, suite_run_id: id }
      : { kind, call_import_id: id };

/**
 * A new queue: its name, the calls it samples (a recent evaluation, suite run or import), the
 * metrics to label, how many calls and how they are picked, how long a claim holds, and who may
 * label (anyone in the workspace when left empty).
 */
export const NewQueue = () => {
  const client = useClient();
  const queryClient = useQueryClient();
  const [kind, setKind] = useState<Kind>('evaluation');
  const [sourceId, setSourceId] = useState('');
  const [picked, setPicked] = useState<ReadonlySet<string>>(new Set());
  const sources = useSources(kind);
  const metrics = useQuery({
    queryKey: ['metrics', 'active'],
    queryFn: () => client.metrics.list({ lifecycle: 'active', page_size: 100 }),
  });
  const create = useMutation({
    mutationFn: (body: ReviewQueueCreateBody) => client.reviewQueues.create(body),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['review-queues'] }),
  });
  const topLevel = metrics.data?.items.filter((m) => m.parent_metric_id === null) ?? [];
  const pickSource = (id: string) => {
    setSourceId(id);
    // an evaluation's own metrics, ticked to start with
    const scored = sources.data?.find((s) => s.id === id)?.metricIds;
    if (scored) setPicked(new Set(topLevel.filter((m) => scored.includes(m.id)).map((m) => m.id)));
  };
  const toggle = (id: string) => {
    const next = new Set(picked);
    if (next.has(id)) next.delete(id);
    else next.add(id);
    setPicked(next);
  };
  return (
    <form
      className="panel-form"
      aria-labelledby="new-queue-title"
      onSubmit={(e) => {
        e.preventDefault();
        const element = e.currentTarget;
        const form = new FormData(element);
        const text = (name: string) => form.get(name)?.toString() ?? '';
        create.mutate(
          {
            name: text('name'),
            source: sourceOf(kind, sourceId),
            metric_ids: [...picked],
            sample_size: Number(text('sample_size')),
            strategy: text('strategy') as ReviewQueue['strategy'],
            lock_minutes: Number(text('lock_minutes')),
            assignees: text('assignees')
              .split(',')
              .map((a) => a.trim())
              .filter(Boolean),
          },
          {
            onSuccess: () => {
              element.reset();
              setSourceId('');
              setPicked(new Set());
            },
          },
        );
      }}
    >
      <h2 id="new-queue-title">New review queue</h2>
      <label className="wide">
        Name <input name="name" required maxLength={200} />
      </label>
      <div className="inline-form">
        <label>
          Calls from{' '}
          <select
            value={kind}
            onChange={(e) => {
              setKind(e.target.value as Kind);
              setSourceId('');
            }}
          >
            {Object.entries(KINDS).map(([value, label]) => (
              <option key={value} value={value}>
                {label}
              </option>
            ))}
          </select>
        </label>
        <label>
          Which{' '}
          <select required value={sourceId} onChange={(e) => pickSource(e.target.value)}>
            <option value="">{sources.isPending ? 'Loading…' : 'Pick one'}</option>
            {sources.data?.map((s) => (
              <option key={s.id} value={s.id}>
                {s.label}
              </option>
            ))}
          </select>
        </label>
      </div>
      {sources.isError && <ProblemView error={sources.error} what="sources" />}
      <fieldset>
        <legend>Metrics to label</legend>
        {metrics.isError && <ProblemView error={metrics.error} what="metrics" />}
        {topLevel.map((m) => (
          <label key={m.id}>
            <input type="checkbox" checked={picked.has(m.id)} onChange={() => toggle(m.id)} /> {m.name}{' '}
            <span className="muted">({m.metric_type})</span>
          </label>
        ))}
      </fieldset>
      <div className="inline-form">
        <label>
          Calls <input name="sample_size" type="number" min={1} max={1000} defaultValue={50} required />
        </label>
        <label>
          Picked{' '}
          <select name="strategy" defaultValue="random">
            {Object.entries(STRATEGY_NAMES).map(([value, label]) => (
              <option key={value} value={value}>
                {label}
              </option>
            ))}
          </select>
        </label>
        <label>
          Claim held for (minutes){' '}
          <input name="lock_minutes" type="number" min={1} max={1440} defaultValue={15} required />
        </label>
      </div>
      <label className="wide">
        Labellers (e-mails, comma-separated; anyone in the workspace when empty)
        <input name="assignees" />
      </label>
      <button type="submit" disabled={create.isPending || picked.size === 0 || sourceId === ''}>
        Create queue
      </button>
      {create.isError && <ProblemView error={create.error} what="review queue" />}
      {create.isSuccess && (
        <output>
          Made “{create.data.name}” with {create.data.counts.total} calls.{' '}
          <Link to="/review/$queueId" params={{ queueId: create.data.id }}>
            Start labelling
          </Link>
        </output>
      )}
    </form>
  );
};
