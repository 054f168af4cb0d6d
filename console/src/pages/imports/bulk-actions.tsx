import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useNavigate } from '@tanstack/react-router';
import type { CallImportDetail, DiarisedTranscriptStatus } from '@voice-eval/contract';
import { useState } from 'react';
import { ProblemView } from '../../components/problem.tsx';
import { useCanWrite, useClient } from '../../components/session-context.tsx';

/** The rows picked for a bulk action: by hand, or every row matching the filters (across pages). */
export interface Selection {
  ids: Set<string>;
  allMatching: boolean;
}

type Filters = { q?: string; diarised_status?: DiarisedTranscriptStatus };
type Open = 'transcribe' | 'evaluate' | null;

/** Select every matching row, then transcribe, cancel transcription, or score the selection. */
export const BulkActions = ({
  importDetail,
  filters,
  selection,
  onSelection,
}: {
  importDetail: CallImportDetail;
  filters: Filters;
  selection: Selection;
  onSelection: (next: Selection) => void;
}) => {
  const client = useClient();
  const queryClient = useQueryClient();
  const canWrite = useCanWrite();
  const [open, setOpen] = useState<Open>(null);
  const [outcome, setOutcome] = useState('');
  const id = importDetail.id;
  const rowIds = [...selection.ids];
  const selectAll = useMutation({
    mutationFn: () => client.callImports.rowIds(id, filters),
    onSuccess: (all) => onSelection({ ids: new Set(all.ids), allMatching: true }),
  });
  const cancel = useMutation({
    mutationFn: () => client.callImports.cancelDiarisation(id, { row_ids: rowIds }),
    onSuccess: (r) => {
      setOutcome(`${r.cancelled} transcriptions cancelled, ${r.skipped} were not running.`);
      void queryClient.invalidateQueries({ queryKey: ['import', id] });
    },
  });
  if (!canWrite || importDetail.rows_total === 0) return null;
  const n = selection.ids.size;
  return (
    <div className="bulk">
      <p>
        <strong>{n}</strong> selected{selection.allMatching ? ' (every call matching the filters)' : ''}{' '}
        {!selection.allMatching && importDetail.rows_total > n && (
          <button
            type="button"
            className="link"
            onClick={() => selectAll.mutate()}
            disabled={selectAll.isPending}
          >
            Select all {importDetail.rows_total} matching
          </button>
        )}
        {n > 0 && (
          <button
            type="button"
            className="link"
            onClick={() => onSelection({ ids: new Set(), allMatching: false })}
          >
            Clear
          </button>
        )}
      </p>
      <div className="inline-form">
        <button
          type="button"
          disabled={n === 0}
          onClick={() => setOpen(open === 'transcribe' ? null : 'transcribe')}
          aria-expanded={open === 'transcribe'}
        >
          Transcribe…
        </button>{' '}
        <button type="button" disabled={n === 0 || cancel.isPending} onClick={() => cancel.mutate()}>
          Cancel transcription
        </button>{' '}
        <button
          type="button"
          disabled={n === 0}
          onClick={() => setOpen(open === 'evaluate' ? null : 'evaluate')}
          aria-expanded={open === 'evaluate'}
        >
          Score…
        </button>
      </div>
      <output>{outcome}</output>
      {open === 'transcribe' && (
        <TranscribeForm
          importId={id}
          rowIds={rowIds}
          onDone={(text) => {
            setOutcome(text);
            setOpen(null);
          }}
        />
      )}
      {open === 'evaluate' && <EvaluateForm importId={id} rowIds={rowIds} />}
      {selectAll.isError && <ProblemView error={selectAll.error} what="calls" />}
      {cancel.isError && <ProblemView error={cancel.error} what="cancellation" />}
    </div>
  );
};

const TranscribeForm = ({
  importId,
  rowIds,
  onDone,
}: {
  importId: string;
  rowIds: string[];
  onDone: (text: string) => void;
}) => {
  const client = useClient();
  const queryClient = useQueryClient();
  const providers = useQuery({
    queryKey: ['ai-providers'],
    queryFn: () => client.aiProviders.list({ page_size: 100 }),
  });
  const [mode, setMode] = useState<'stt_llm' | 'llm_only'>('stt_llm');
  const transcribe = useMutation({
    mutationFn: (form: FormData) => {
      const text = (key: string) => form.get(key)?.toString().trim() || null;
      return client.callImports.transcribe(importId, {
        mode,
        row_ids: rowIds,
        stt_provider: mode === 'stt_llm' ? text('stt_provider') : null,
        stt_model: mode === 'stt_llm' ? text('stt_model') : null,
        diarization_llm_model: text('diarization_llm_model'),
        only_missing: form.get('only_missing') === 'on',
        overwrite_existing: form.get('overwrite_existing') === 'on',
      });
    },
    onSuccess: (r) => {
      const reasons = Object.entries(r.skipped_reason_counts).map(
        ([reason, count]) => `${count} ${reason.replaceAll('_', ' ')}`,
      );
      onDone(
        `${r.queued} queued for transcription${r.skipped_rows ? `; skipped ${reasons.join(', ')}` : ''}.`,
      );
      void queryClient.invalidateQueries({ queryKey: ['import', importId] });
    },
  });
  const names = [...new Set((providers.data?.items ?? []).filter((p) => p.is_active).map((p) => p.provider))];
  return (
    <form
      className="panel-form"
      onSubmit={(e) => {
        e.preventDefault();
        transcribe.mutate(new FormData(e.currentTarget));
      }}
    >
      <label>
        How{' '}
        <select value={mode} onChange={(e) => setMode(e.target.value as typeof mode)}>
          <option value="stt_llm">speech to text, then a model splits the turns</option>
          <option value="llm_only">one model that hears audio</option>
        </select>
      </label>
      {mode === 'stt_llm' && (
        <>
          <label>
            Speech-to-text provider{' '}
            <input
              name="stt_provider"
              list="stt-providers"
              required
              key={names[0]}
              defaultValue={names[0] ?? 'default'}
            />
            <datalist id="stt-providers">
              {names.map((name) => (
                <option key={name} value={name} />
              ))}
              <option value="default">the server's default</option>
            </datalist>
          </label>
          <label>
            Speech-to-text model <input name="stt_model" required placeholder="whisper-1" />
          </label>
        </>
      )}
      <label>
        Turn-splitting model <input name="diarization_llm_model" placeholder="the provider's default" />
      </label>
      <label>
        <input type="checkbox" name="only_missing" /> Skip calls that came with a transcript
      </label>
      <label>
        <input type="checkbox" name="overwrite_existing" /> Transcribe again calls already done
      </label>
      <button type="submit" disabled={transcribe.isPending}>
        Transcribe {rowIds.length} calls
      </button>
      {transcribe.isError && <ProblemView error={transcribe.error} what="transcription" />}
    </form>
  );
};

const EvaluateForm = ({ importId, rowIds }: { importId: string; rowIds: string[] }) => {
  const client = useClient();
  const navigate = useNavigate();
  const metrics = useQuery({
    queryKey: ['metrics', 'active'],
    queryFn: () => client.metrics.list({ lifecycle: 'active', page_size: 100 }),
  });
  const evaluate = useMutation({
    mutationFn: (metricIds: string[]) =>
      client.evaluations.create({ call_import_id: importId, metric_ids: metricIds, row_ids: rowIds }),
    onSuccess: (evaluation) =>
      navigate({ to: '/evaluations/$evaluationId', params: { evaluationId: evaluation.id } }),
  });
  const [picked, setPicked] = useState<Set<string>>(new Set());
  const toggle = (metricId: string) => {
    const next = new Set(picked);
    if (next.has(metricId)) next.delete(metricId);
    else next.add(metricId);
    setPicked(next);
  };
  return (
    <form
      className="panel-form"
      onSubmit={(e) => {
        e.preventDefault();
        evaluate.mutate([...picked]);
      }}
    >
      <fieldset>
        <legend>Metrics to score</legend>
        {metrics.isError && <ProblemView error={metrics.error} what="metrics" />}
        {metrics.data?.items.length === 0 && <p className="muted">No active metric yet.</p>}
        {metrics.data?.items
          .filter((m) => m.parent_metric_id === null)
          .map((m) => (
            <label key={m.id}>
              <input type="checkbox" checked={picked.has(m.id)} onChange={() => toggle(m.id)} /> {m.name}
              {m.children.length > 0 && <span className="muted"> ({m.children.length} sub-metrics)</span>}
            </label>
          ))}
      </fieldset>
      <button type="submit" disabled={picked.size === 0 || evaluate.isPending}>
        Score {rowIds.length} calls with {picked.size} metrics
      </button>
      {evaluate.isError && <ProblemView error={evaluate.error} what="evaluation" />}
    </form>
  );
};
