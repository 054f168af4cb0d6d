import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { ConsistencyCheck, ConsistencyCheckCreateBody, Metric } from '@voice-eval/contract';
import { useEffect, useState } from 'react';
import { Loading, ProblemView } from '../../components/problem.tsx';
import { useCanWrite, useClient } from '../../components/session-context.tsx';
import { count, dateTime } from '../../format.ts';
import { Stat } from './stat.tsx';

/** The checks listed, and the recent evaluations offered as their calls. */
const SHOWN = 5;
const RECENT = 50;
const listKey = (metricId: string) => ['metric', metricId, 'consistency-checks'];
const COLUMNS = ['Version', 'Calls × repeats', 'Status', 'Flip rate', 'Value changed', 'Started'];
const pct = (x: number) => `${(x * 100).toFixed(1)}%`;

/** A completed check in words: how often the verdict changed, and the change compare reads as noise. */
const summary = (check: ConsistencyCheck, current: number): string => {
  const rate = check.flip_rate;
  if (rate === null) return `No call was scored by every repeat of the check with v${check.version}.`;
  const on = check.version === current ? 'this version' : `v${check.version}`;
  return (
    `Scored ${count(check.n, 'call')} ${check.repeats} times with v${check.version}: the verdict changed on ` +
    `${check.flipped} of them (${pct(rate.estimate)}, 95% interval ${pct(rate.low)}–${pct(rate.high)}). ` +
    `Compare reads a pass-rate change of up to ${(rate.estimate * 100).toFixed(1)} points on ${on} as the judge's noise.`
  );
};

/** The judge's latest consistency checks (the latest completed in words), and a form to start one for writers. */
export const Consistency = ({ metric }: { metric: Metric }) => {
  const client = useClient();
  const canWrite = useCanWrite();
  const checks = useQuery({
    queryKey: listKey(metric.id),
    queryFn: () => client.consistencyChecks.list(metric.id, { page_size: SHOWN }),
  });
  const latest = checks.data?.items.find((c) => c.status === 'completed');
  return (
    <>
      <h2>Judge consistency</h2>
      <p className="muted">A call flips when its verdict (flagged or not) changes between repeats.</p>
      {checks.isPending ? (
        <Loading what="consistency checks" />
      ) : checks.isError ? (
        <ProblemView error={checks.error} what="consistency checks" />
      ) : checks.data.items.length === 0 ? (
        <p className="empty">{`No consistency check yet${canWrite ? ': start one below.' : '.'}`}</p>
      ) : (
        <>
          {latest && <p>{summary(latest, metric.version)}</p>}
          <table aria-label="Consistency checks">
            <thead>
              <tr>
                {COLUMNS.map((c) => (
                  <th key={c} scope="col">
                    {c}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {checks.data.items.map((c) => (
                <CheckRow key={c.id} metricId={metric.id} listed={c} />
              ))}
            </tbody>
          </table>
        </>
      )}
      {canWrite && <CheckForm metric={metric} checks={checks.data?.items ?? []} />}
    </>
  );
};

/** One check; while it runs, polled every 2 s with its repeats' progress, the list refreshed once it ends. */
const CheckRow = ({ metricId, listed }: { metricId: string; listed: ConsistencyCheck }) => {
  const client = useClient();
  const queryClient = useQueryClient();
  const running = listed.status === 'running';
  const polled = useQuery({
    queryKey: ['metric', metricId, 'consistency-check', listed.id],
    queryFn: () => client.consistencyChecks.get(metricId, listed.id),
    enabled: running,
    refetchInterval: (query) => (query.state.data?.status === 'completed' ? false : 2000),
  });
  const check = running && polled.data ? polled.data : listed;
  const progress = useQuery({
    queryKey: ['metric', metricId, 'consistency-check', listed.id, 'progress'],
    queryFn: () => Promise.all(listed.evaluation_ids.map((id) => client.evaluations.get(id))),
    enabled: check.status === 'running',
    refetchInterval: 2000,
  });
  const ended = running && polled.data?.status === 'completed';
  useEffect(() => {
    if (ended) void queryClient.invalidateQueries({ queryKey: listKey(metricId) });
  }, [ended, queryClient, metricId]);
  const [done, total] = (progress.data ?? []).reduce(
    ([d, t], e) => [d + e.completed_rows + e.failed_rows + e.cancelled_rows, t + e.total_rows],
    [0, 0],
  );
  const bar = check.status === 'running' && total > 0;
  return (
    <tr>
      <td>v{check.version}</td>
      <td>{`${check.calls} × ${check.repeats}`}</td>
      <td>
        {bar ? `running: ${done} of ${total} scores ` : check.status}
        {bar && <progress value={done} max={total} aria-label="Consistency check progress" />}
      </td>
      <td>
        {check.flipped} of {check.n} · <Stat value={check.flip_rate} share />
      </td>
      <td>
        {check.value_changed} of {check.n} · <Stat value={check.value_change_rate} share />
      </td>
      <td>
        {dateTime(check.created_at)} <span className="muted">by {check.created_by}</span>
      </td>
    </tr>
  );
};

/** Starts a check on a recent completed evaluation that scored the metric (not a check's own repeats). */
const CheckForm = ({ metric, checks }: { metric: Metric; checks: ConsistencyCheck[] }) => {
  const client = useClient();
  const queryClient = useQueryClient();
  const [picked, setPicked] = useState('');
  const sources = useQuery({
    queryKey: ['metric', metric.id, 'consistency-sources'],
    queryFn: async () => {
      const [evaluations, imports] = await Promise.all([
        client.evaluations.list({ status: 'completed', page_size: RECENT }),
        client.callImports.list({ page_size: RECENT }),
      ]);
      const names = new Map(imports.items.map((i) => [i.id, i.original_filename ?? i.dataset]));
      return evaluations.items
        .filter((e) => e.metric_ids.includes(metric.id) && e.completed_rows >= 2)
        .map((e) => ({
          id: e.id,
          label: `${dateTime(e.created_at)} · ${names.get(e.call_import_id) ?? 'an import'} · ${e.completed_rows} calls`,
        }));
    },
  });
  const options = sources.data?.filter((s) => !checks.some((c) => c.evaluation_ids.includes(s.id))) ?? [];
  const sourceId = options.some((o) => o.id === picked) ? picked : (options[0]?.id ?? '');
  const create = useMutation({
    mutationFn: (body: ConsistencyCheckCreateBody) => client.consistencyChecks.create(metric.id, body),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: listKey(metric.id) }),
  });
  return (
    <form
      className="panel-form"
      aria-labelledby="consistency-title"
      onSubmit={(e) => {
        e.preventDefault();
        const form = new FormData(e.currentTarget);
        create.mutate({
          source: { kind: 'evaluation', evaluation_id: sourceId },
          sample_size: Number(form.get('sample_size')),
          repeats: Number(form.get('repeats')),
        });
      }}
    >
      <h3 id="consistency-title">Check the judge's consistency</h3>
      {sources.isError && <ProblemView error={sources.error} what="evaluations" />}
      {sources.isPending ? (
        <Loading what="evaluations" />
      ) : sources.isError ? null : options.length === 0 ? (
        <p className="muted">No completed evaluation has scored this metric yet: run one, then check here.</p>
      ) : (
        <>
          <p className="muted">{`Scores a sample of the evaluation's calls again with v${metric.version} and its judge, several times.`}</p>
          <div className="inline-form">
            <label>
              Calls from{' '}
              <select value={sourceId} onChange={(e) => setPicked(e.target.value)}>
                {options.map((o) => (
                  <option key={o.id} value={o.id}>
                    {o.label}
                  </option>
                ))}
              </select>
            </label>
            <label>
              Sample size{' '}
              <input name="sample_size" type="number" min={2} max={200} defaultValue={20} required />
            </label>
            <label>
              Repeats <input name="repeats" type="number" min={2} max={10} defaultValue={3} required />
            </label>
            <button type="submit" disabled={create.isPending || sourceId === ''}>
              Start check
            </button>
          </div>
        </>
      )}
      {create.isError && <ProblemView error={create.error} what="consistency check" />}
      {create.isSuccess && <output>{`Started a check with v${create.data.version}: see it above.`}</output>}
    </form>
  );
};
