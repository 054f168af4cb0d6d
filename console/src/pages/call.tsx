import { useQuery } from '@tanstack/react-query';
import { getRouteApi } from '@tanstack/react-router';
import { Loading, ProblemView } from '../components/problem.tsx';
import { useClient } from '../components/session-context.tsx';
import type { ParentMetric } from '../components/verdicts.tsx';
import { transcriptOf } from '../transcript.ts';
import { CallView, type CallViewProps } from './call-view.tsx';

const route = getRouteApi('/app/calls/$rowId');
const NO_EVENTS: never[] = [];
const NO_PARENTS = new Map<string, ParentMetric>();
/** Peaks per channel asked of the server: about two per pixel of a wide screen. */
const PEAK_POINTS = 4000;

/** Which call to show: a row of an import, and (for a simulated call) its run and the run's call. */
export interface CallRef {
  importId: string;
  rowId: string;
  runId?: string | undefined;
  callId?: string | undefined;
  /** The evaluation whose verdicts to show; default: the run's, else the import's latest completed. */
  evaluationId?: string | undefined;
}

/**
 * One call: both speakers' audio, the transcript that follows playback, and the verdicts, each
 * quote of which plays the moment it was said. `?t=` starts at a second, `?metric=` selects a verdict.
 */
export const CallPage = () => {
  const { rowId } = route.useParams();
  const search = route.useSearch();
  if (search.import === undefined) {
    return (
      <ProblemView
        error={new Error('This link does not say which import the call belongs to (its `import` parameter).')}
        what="call"
      />
    );
  }
  return (
    <CallPane
      key={rowId}
      call={{
        importId: search.import,
        rowId,
        runId: search.run,
        callId: search.call,
        evaluationId: search.evaluation,
      }}
      startAtSeconds={search.t}
      selectedMetric={search.metric}
    />
  );
};

/**
 * The evaluation whose verdicts a call shows (the one named, else its run's, else its import's
 * latest completed) and its scored row of the call: shared by the call's view and the labelling
 * page's proposals (the same queries).
 */
export const useCallVerdicts = (call: CallRef) => {
  const client = useClient();
  const { importId, rowId, runId, evaluationId } = call;
  const evaluation = useQuery({
    queryKey: ['evaluation-of-call', importId, runId, evaluationId],
    queryFn: async () => {
      if (evaluationId) return client.evaluations.get(evaluationId);
      const run = runId ? await client.suiteRuns.get(runId) : undefined;
      if (run?.evaluation_id) return client.evaluations.get(run.evaluation_id);
      const page = await client.evaluations.list({ call_import_id: importId, page_size: 20 });
      return page.items.find((e) => e.status === 'completed') ?? page.items[0] ?? null;
    },
  });
  const verdicts = useQuery({
    queryKey: ['verdicts', evaluation.data?.id, rowId],
    queryFn: () => client.evaluations.listRows(evaluation.data!.id, { call_import_row_id: rowId }),
    enabled: !!evaluation.data,
  });
  return { evaluation, verdicts };
};

/** A call's data, fetched, in a {@link CallView}: the call page, or one side of two calls compared. */
export const CallPane = ({
  call,
  startAtSeconds,
  selectedMetric,
  keyboard = true,
  heading,
  shortcuts,
}: {
  call: CallRef;
  startAtSeconds?: number | undefined;
  selectedMetric?: string | undefined;
  /** Whether the page's keys drive this call (one pane of two does not). */
  keyboard?: boolean;
  /** Said above the call's title (e.g. "This run", "Baseline"). */
  heading?: string;
  /** Keys the page adds to the call's, for the help. */
  shortcuts?: CallViewProps['shortcuts'];
}) => {
  const client = useClient();
  const { importId, rowId, runId, callId } = call;
  const row = useQuery({
    queryKey: ['row', importId, rowId],
    queryFn: () => client.callImports.getRow(importId, rowId),
  });
  const recording = useQuery({
    queryKey: ['recording-url', importId, rowId],
    queryFn: () => client.callImports.recordingUrl(importId, rowId),
    enabled: row.data?.has_recording === true,
    // the audio is fetched once, as soon as the URL is here; the URL need not stay fresh after
    staleTime: Number.POSITIVE_INFINITY,
  });
  // drawn from the server's peaks while the audio streams; a recording it cannot summarise (not
  // a WAV) is decoded in the browser instead
  const peaks = useQuery({
    queryKey: ['recording-peaks', importId, rowId],
    queryFn: () => client.callImports.recordingPeaks(importId, rowId, { points: PEAK_POINTS }),
    enabled: row.data?.has_recording === true,
    retry: false,
    staleTime: Number.POSITIVE_INFINITY,
  });
  const runCall = useQuery({
    queryKey: ['run-call', runId, callId],
    queryFn: () => client.suiteRuns.getCall(runId!, callId!),
    enabled: runId !== undefined && callId !== undefined,
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
  const { evaluation, verdicts } = useCallVerdicts(call);

  if (row.isPending) return <Loading what="call" />;
  if (row.isError) return <ProblemView error={row.error} what="call" />;
  const events = runCall.data?.voice_events ?? row.data.voice_events ?? NO_EVENTS;
  return (
    <CallView
      title={row.data.conversation_id}
      heading={heading}
      keyboard={keyboard}
      turns={transcriptOf(row.data)}
      recordingUrl={peaks.isPending ? undefined : recording.data?.url}
      peaks={peaks.data}
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
      runId={runId}
      startAtSeconds={startAtSeconds}
      selectedMetric={selectedMetric}
      shortcuts={shortcuts}
    />
  );
};
