import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { getRouteApi, useNavigate } from '@tanstack/react-router';
import type { EvaluatorSuite } from '@voice-eval/contract';
import { useState } from 'react';
import { Loading, ProblemView } from '../../components/problem.tsx';
import { useCanWrite, useClient } from '../../components/session-context.tsx';
import { count, dateTime } from '../../format.ts';
import { Schedule } from './suites.tsx';
import { SuiteTrend } from './trend.tsx';

const route = getRouteApi('/app/suites/$suiteId');

/** One suite: what it calls, its schedule, a button to run it now, and its pass rate over runs. */
export const SuitePage = () => {
  const client = useClient();
  const { suiteId } = route.useParams();
  const suite = useQuery({
    queryKey: ['suite', suiteId],
    queryFn: () => client.evaluatorSuites.get(suiteId),
  });
  if (suite.isPending) return <Loading what="suite" />;
  if (suite.isError) return <ProblemView error={suite.error} what="suite" />;
  const s = suite.data;
  const scenarios = new Set(s.combinations.map((c) => c.scenario_id)).size;
  return (
    <section>
      <div className="page-head">
        <h1>{s.name}</h1>
        <StartRun suite={s} />
      </div>
      <dl className="facts">
        <div>
          <dt>Agent</dt>
          <dd>
            {s.agent_name} <span className="muted">({s.agent_call_medium})</span>
          </dd>
        </div>
        <div>
          <dt>Calls per run</dt>
          <dd>
            {count(s.personas.length, 'persona')} × {count(scenarios, 'scenario')} ×{' '}
            {s.default_runs_per_combination}
          </dd>
        </div>
        <div>
          <dt>Metrics</dt>
          <dd>{s.metric_ids.length}</dd>
        </div>
        <div>
          <dt>Schedule (UTC)</dt>
          <dd>
            <Schedule suite={s} />
          </dd>
        </div>
        <div>
          <dt>Updated</dt>
          <dd>{dateTime(s.updated_at)}</dd>
        </div>
      </dl>
      <SuiteTrend suiteId={s.id} />
      <ScheduleForm suite={s} />
    </section>
  );
};

/** Starts a run now (every combination, `runs` times each) and opens it. */
const StartRun = ({ suite }: { suite: EvaluatorSuite }) => {
  const client = useClient();
  const navigate = useNavigate();
  const canWrite = useCanWrite();
  const [runs, setRuns] = useState(suite.default_runs_per_combination);
  const start = useMutation({
    mutationFn: () => client.suiteRuns.create(suite.id, { runs_per_combination: runs }),
    onSuccess: (run) => navigate({ to: '/runs/$runId', params: { runId: run.id } }),
  });
  if (!canWrite) return null;
  return (
    <form
      className="inline-form"
      onSubmit={(e) => {
        e.preventDefault();
        start.mutate();
      }}
    >
      <label>
        Runs per combination{' '}
        <input
          type="number"
          min={1}
          max={100}
          value={runs}
          onChange={(e) => setRuns(Math.max(1, Math.min(100, Number(e.target.value) || 1)))}
        />
      </label>{' '}
      <button type="submit" disabled={start.isPending || !suite.is_active}>
        {start.isPending ? 'Starting…' : 'Start a run'}
      </button>
      {!suite.is_active && <span className="muted"> the suite is inactive</span>}
      {start.isError && <ProblemView error={start.error} what="run" />}
    </form>
  );
};

/** The cron schedule on which runs start by themselves; a READER sees it without the form. */
const ScheduleForm = ({ suite }: { suite: EvaluatorSuite }) => {
  const client = useClient();
  const queryClient = useQueryClient();
  const canWrite = useCanWrite();
  const [cron, setCron] = useState(suite.schedule ?? '');
  const [enabled, setEnabled] = useState(suite.schedule_enabled);
  const save = useMutation({
    mutationFn: () =>
      client.evaluatorSuites.update(suite.id, {
        schedule: cron.trim() || null,
        schedule_enabled: cron.trim() !== '' && enabled,
      }),
    onSuccess: (updated) => {
      queryClient.setQueryData(['suite', suite.id], updated);
      void queryClient.invalidateQueries({ queryKey: ['suites'] });
    },
  });
  if (!canWrite) return null;
  return (
    <>
      <h2>Schedule</h2>
      <form
        className="inline-form"
        onSubmit={(e) => {
          e.preventDefault();
          save.mutate();
        }}
      >
        <label>
          Cron (5 fields, UTC){' '}
          <input
            value={cron}
            placeholder="0 6 * * 1-5"
            onChange={(e) => setCron(e.target.value)}
            aria-describedby="schedule-help"
          />
        </label>{' '}
        <label>
          <input type="checkbox" checked={enabled} onChange={(e) => setEnabled(e.target.checked)} /> Runs by
          itself
        </label>{' '}
        <button type="submit" disabled={save.isPending}>
          Save schedule
        </button>
        <output>{save.isSuccess && !save.isPending ? ' Saved.' : ''}</output>
      </form>
      <p id="schedule-help" className="muted">
        Minute, hour, day of month, month, day of week: <code>0 6 * * 1-5</code> runs at 06:00 UTC on
        weekdays. Empty removes the schedule.
      </p>
      {save.isError && <ProblemView error={save.error} what="schedule" />}
    </>
  );
};
