import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { ProblemView } from '../../components/problem.tsx';
import { useClient } from '../../components/session-context.tsx';

/** Transcribes the picked calls: how, with which speech-to-text provider and model, and which calls to skip. */
export const TranscribeForm = ({
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
