import { useQuery } from '@tanstack/react-query';
import { getRouteApi } from '@tanstack/react-router';
import { Loading, ProblemView } from '../components/problem.tsx';
import { useClient } from '../components/session-context.tsx';
import type { ParentMetric } from '../components/verdicts.tsx';
import { transcriptOf } from '../transcript.ts';
import { CallView } from './call-view.tsx';

const route = getRouteApi('/app/calls/$rowId');
const NO_EVENTS: never[] = [];
const NO_PARENTS = new Map<string, ParentMetric>();

/**
 * One call: both speakers' audio, the transcript that follows playback, and the verdicts, each
 * quote of which plays the moment it was said. `?t=` starts at a second, `?metric=` selects a verdict.
 */
export const CallPage = () => {
  const client = useClient();
  const { rowId } = route.useParams();
  const search = route.useSearch();
  const importId = search.import;
  const row = useQuery({
    queryKey: ['row', importId, rowId],
    queryFn: () => client.callImports.getRow(importId!, rowId),
    enabled: importId !== undefined,
  });
  const recording = useQuery({
    queryKey: ['recording-url', importId, rowId],
    queryFn: () => client.callImports.recordingUrl(importId!, rowId),
    enabled: row.data?.has_recording === true,
    // the audio is fetched once, as soon as the URL is here; the URL need not stay fresh after
    staleTime: Number.POSITIVE_INFINITY,
  });
  const runCall = useQuery({
    queryKey: ['run-call', search.run, search.call],
    queryFn: () => client.suiteRuns.getCall(search.run!, search.call!),
    enabled: search.run !== undefined && search.call !== undefined,
  });
  const evaluation = useQuery({
    queryKey: ['evaluations-of-import', importId],
    queryFn: async () => {
      const page = await client.evaluations.list({ call_import_id: importId, page_size: 20 });
      return page.items.find((e) => e.status === 'completed') ?? page.items[0] ?? null;
    },
    enabled: importId !== undefined,
  });
  // child metric to parent, to group the verdicts as the metrics are (parents carry their children)
  const parents = useQuery({
    queryKey: ['metric-parents'],
    queryFn: async () => {
      const metrics = await client.metrics.list({ page_size: 100 }).toArray({ limit: 2000 });
      return new Map(
        metrics.flatMap((m) => m.children.map((c) => [c.id, { id: m.id, name: m.name }] as const)),
      );
    },
    staleTime: 60_000,
  });
  const verdicts = useQuery({
    queryKey: ['verdicts', evaluation.data?.id, rowId],
    queryFn: () => client.evaluations.listRows(evaluation.data!.id, { call_import_row_id: rowId }),
    enabled: !!evaluation.data,
  });

  if (importId === undefined) {
    return (
      <ProblemView
        error={new Error('This link does not say which import the call belongs to (its `import` parameter).')}
        what="call"
      />
    );
  }
  if (row.isPending) return <Loading what="call" />;
  if (row.isError) return <ProblemView error={row.error} what="call" />;
  const events = runCall.data?.voice_events ?? row.data.voice_events ?? NO_EVENTS;
  return (
    <CallView
      key={rowId}
      title={row.data.conversation_id}
      turns={transcriptOf(row.data)}
      recordingUrl={recording.data?.url}
      recordingError={recording.error}
      hasRecording={row.data.has_recording}
      events={events}
      results={verdicts.data?.items[0]?.results ?? []}
      parentOf={parents.data ?? NO_PARENTS}
      verdictsState={
        evaluation.isPending || verdicts.isLoading
          ? 'loading'
          : evaluation.data === null || verdicts.data?.items.length === 0
            ? 'none'
            : 'ready'
      }
      runId={search.run}
      startAtSeconds={search.t}
      selectedMetric={search.metric}
    />
  );
};
