import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { Metric, MetricVersion, MetricVersionDraftBody } from '@voice-eval/contract';
import { useState } from 'react';
import { ProblemView } from '../../components/problem.tsx';
import { useCanWrite, useClient } from '../../components/session-context.tsx';
import { DraftTrial } from './draft-trial.tsx';

/**
 * The drafts of an active top-level metric: each draft drafted from the version in force, with its
 * trial on the labelled calls (score, compare, promote), and a form to draft new words. A READER
 * sees the trials and no buttons; a metric with no draft shows them nothing.
 */
export const DraftVersions = ({ metric, versions }: { metric: Metric; versions: MetricVersion[] }) => {
  const canWrite = useCanWrite();
  const [outcome, setOutcome] = useState('');
  if (metric.lifecycle !== 'active' || metric.parent_metric_id !== null) return null;
  // a draft from an older version cannot be promoted (it would undo the edit since): history only
  const drafts = versions.filter((v) => v.status === 'draft' && v.based_on === metric.version);
  if (!canWrite && drafts.length === 0 && outcome === '') return null;
  return (
    <>
      <h2>Draft versions</h2>
      <p className="muted">
        New words for the judge, tried on the calls people labelled before they replace v{metric.version}'s.
        Evaluations go on scoring v{metric.version} until a draft is promoted.
      </p>
      <output className="good">{outcome}</output>
      {drafts.map((draft) => (
        <DraftTrial
          key={draft.version}
          metric={metric}
          draft={draft}
          onPromoted={(promoted) =>
            setOutcome(`Version ${promoted.version} is active: evaluations score with its words now.`)
          }
        />
      ))}
      {canWrite && (
        <DraftForm
          key={metric.version}
          metric={metric}
          onDrafted={(draft) =>
            setOutcome(`Drafted version ${draft.version}: score it on the labelled calls to compare.`)
          }
        />
      )}
    </>
  );
};

type Words = { description: string; example: string };

/**
 * New words for the judge, prefilled with the active ones: the metric's description and examples,
 * and each sub-metric's. Only the words changed are sent; the rest keep the active version's.
 */
const DraftForm = ({ metric, onDrafted }: { metric: Metric; onDrafted: (draft: MetricVersion) => void }) => {
  const client = useClient();
  const queryClient = useQueryClient();
  const [open, setOpen] = useState(false);
  const create = useMutation({
    mutationFn: (body: MetricVersionDraftBody) => client.metrics.createVersion(metric.id, body),
    onSuccess: async (draft) => {
      await queryClient.invalidateQueries({ queryKey: ['metric', metric.id, 'versions'] });
      setOpen(false);
      onDrafted(draft);
    },
  });
  const bodyOf = (form: FormData): MetricVersionDraftBody => {
    const words = (prefix: string, active: Words): Partial<Words> => {
      const changed: Partial<Words> = {};
      for (const field of ['description', 'example'] as const) {
        const value = form.get(`${prefix}${field}`)?.toString() ?? active[field];
        if (value !== active[field]) changed[field] = value;
      }
      return changed;
    };
    const children = metric.children
      .map((child) => ({ id: child.id, ...words(`${child.id}.`, child) }))
      .filter((child) => Object.keys(child).length > 1);
    const own = words('', metric);
    // nothing changed: send the words as they are, and let the API say the draft changes nothing
    if (children.length > 0) return { ...own, children };
    return Object.keys(own).length > 0 ? own : { description: metric.description };
  };
  return (
    <details open={open} onToggle={(event) => setOpen(event.currentTarget.open)}>
      <summary>Draft new words</summary>
      {/* rendered only when open: the words are not on the page twice */}
      {open && (
        <form
          className="panel-form"
          aria-label="Draft new words"
          onSubmit={(event) => {
            event.preventDefault();
            create.mutate(bodyOf(new FormData(event.currentTarget)));
          }}
        >
          <p className="muted">
            Type, scale and labels stay as they are; change those by editing the metric, which makes the next
            active version at once.
          </p>
          <WordFields prefix="" name={metric.name} words={metric} />
          {metric.children.map((child) => (
            <fieldset key={child.id}>
              <legend>Sub-metric “{child.name}”</legend>
              <WordFields prefix={`${child.id}.`} name={child.name} words={child} />
            </fieldset>
          ))}
          <button type="submit" disabled={create.isPending}>
            Draft version
          </button>
          {create.isError && <ProblemView error={create.error} what="draft" />}
        </form>
      )}
    </details>
  );
};

const WordFields = ({ prefix, name, words }: { prefix: string; name: string; words: Words }) => (
  <>
    <label className="wide">
      {prefix ? `${name}: description` : 'Description'}
      <textarea name={`${prefix}description`} defaultValue={words.description} rows={3} />
    </label>
    <label className="wide">
      {prefix ? `${name}: examples` : 'Examples'}
      <textarea name={`${prefix}example`} defaultValue={words.example} rows={2} />
    </label>
  </>
);
