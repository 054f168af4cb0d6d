import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import type { Monitor, MonitorAlert } from '@voice-eval/contract';
import { Pager } from '../../components/pager.tsx';
import { Loading, ProblemView } from '../../components/problem.tsx';
import { useClient } from '../../components/session-context.tsx';
import { dateTime } from '../../format.ts';
import { alertFigures, ruleDetails, ruleInWords } from './rules.ts';

const PAGE_SIZE = 25;

const SLACK: Record<MonitorAlert['slack_status'], { text: string; className: string }> = {
  none: { text: 'not set', className: 'muted' },
  pending: { text: 'sending', className: 'badge warn' },
  sent: { text: 'sent', className: 'badge good' },
  failed: { text: 'failed', className: 'badge bad' },
};

/**
 * A monitor's alert history, newest first: when, which rule, what it saw, and the call that
 * tipped it, opened with the verdicts of the monitor's evaluation (`importId` is that
 * evaluation's import: the agent's production calls).
 */
export const Alerts = ({
  monitor,
  importId,
  page,
}: {
  monitor: Monitor;
  importId: string | undefined;
  page: number;
}) => {
  const client = useClient();
  const alerts = useQuery({
    queryKey: ['monitor-alerts', monitor.id, page, monitor.calls_seen],
    queryFn: () => client.monitors.alerts(monitor.id, { page, page_size: PAGE_SIZE }),
    placeholderData: keepPreviousData,
  });
  const rules = new Map(monitor.rules.map((r) => [r.id, r]));
  return (
    <>
      <h2>Alerts</h2>
      {alerts.isPending ? (
        <Loading what="alerts" />
      ) : alerts.isError ? (
        <ProblemView error={alerts.error} what="alerts" />
      ) : alerts.data.total === 0 ? (
        <p className="empty">
          {monitor.rules.length === 0 ? 'No rule, so no alert.' : 'No alert yet: no rule has fired.'}
        </p>
      ) : (
        <>
          <table className="alerts">
            <thead>
              <tr>
                <th scope="col">Fired</th>
                <th scope="col">Rule</th>
                <th scope="col">What it saw</th>
                <th scope="col">Figures</th>
                <th scope="col">Slack</th>
                <th scope="col">Call</th>
              </tr>
            </thead>
            <tbody>
              {alerts.data.items.map((alert) => {
                const rule = rules.get(alert.rule_id);
                const slack = SLACK[alert.slack_status];
                return (
                  <tr key={alert.id}>
                    <td className="when">{dateTime(alert.fired_at)}</td>
                    <td className="rule" title={rule ? ruleDetails(rule) : 'a rule since replaced'}>
                      {rule ? ruleInWords(rule) : alert.rule_type.replaceAll('_', ' ')}
                    </td>
                    <td className="text">{alert.summary}</td>
                    <td>
                      {alertFigures(alert).map((figure) => (
                        <div key={figure} className="num">
                          {figure}
                        </div>
                      ))}
                    </td>
                    <td>
                      <span className={slack.className}>{slack.text}</span>
                    </td>
                    <td>
                      <TippingCall alert={alert} importId={importId} evaluationId={monitor.evaluation_id} />
                    </td>
                  </tr>
                );
              })}
            </tbody>
          </table>
          <Pager
            page={alerts.data.page}
            pageSize={PAGE_SIZE}
            total={alerts.data.total}
            to={(p) => ({
              to: '/monitors/$monitorId',
              params: { monitorId: monitor.id },
              search: { page: p },
            })}
          />
        </>
      )}
    </>
  );
};

/** The call that tipped an alert, opened with the monitor's verdicts. */
const TippingCall = ({
  alert,
  importId,
  evaluationId,
}: {
  alert: MonitorAlert;
  importId: string | undefined;
  evaluationId: string | null;
}) => {
  if (alert.call_import_row_id === null) return <span className="muted">none</span>;
  if (importId === undefined) return <span className="muted">…</span>;
  return (
    <Link
      to="/calls/$rowId"
      params={{ rowId: alert.call_import_row_id }}
      search={{ import: importId, evaluation: evaluationId ?? undefined }}
      aria-label={`Open the call of the alert of ${dateTime(alert.fired_at)}`}
    >
      Open the call
    </Link>
  );
};
