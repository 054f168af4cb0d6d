import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { CallImportDetail, DiarisedTranscriptStatus } from '@voice-eval/contract';
import { useState } from 'react';
import { ProblemView } from '../../components/problem.tsx';
import { useCanWrite, useClient } from '../../components/session-context.tsx';
import { EvaluateForm } from './score-form.tsx';
import { TranscribeForm } from './transcribe-form.tsx';

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
