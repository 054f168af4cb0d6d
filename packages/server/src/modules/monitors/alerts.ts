import type { MonitorRule } from '@voice-eval/contract';
import type { Knex } from 'knex';
import { emitEvents } from '../webhook-endpoints/service.js';
import * as repo from './repo.js';
import {
  driftFires,
  type Firing,
  failureCountFires,
  newFailureFires,
  passRateFires,
  type Tally,
} from './rules.js';

/** A call whose score just came in. */
export type Scored = {
  production_call_id: string;
  call_import_row_id: string;
  seq: number;
  sampled: boolean;
  outcome: 'passed' | 'failed' | 'not_sampled' | 'error';
  failures: string[];
};

/** Scored (not errored) calls judged by the monitor that arrived in [from, to). */
const tally = async (trx: Knex, monitorId: string, from: Date, to: Date): Promise<Tally> => {
  const row = await trx('monitor_calls')
    .where({ monitor_id: monitorId, state: 'done', sampled: true })
    .whereIn('outcome', ['passed', 'failed'])
    .where('arrived_at', '>=', from)
    .where('arrived_at', '<', to)
    .first(
      trx.raw("(count(*) filter (where outcome = 'passed'))::int as passed"),
      trx.raw('count(*)::int as total'),
    );
  return { passed: row?.passed ?? 0, total: row?.total ?? 0 };
};

const minutesAgo = (now: Date, minutes: number) => new Date(now.getTime() - minutes * 60_000);

/** What a rule makes of the calls just scored: a firing and the call it names, or nothing. */
const check = async (
  trx: Knex,
  monitor: repo.MonitorRow,
  rule: MonitorRule,
  scored: readonly Scored[],
  names: ReadonlyMap<string, string>,
  now: Date,
): Promise<{ firing: Firing; call: Scored | null } | null> => {
  const failed = scored.filter((c) => c.outcome === 'failed');
  const judged = scored.filter((c) => c.sampled && c.outcome !== 'error');
  const label = (key: string) => names.get(key) ?? key;
  const lastFailed = failed.filter((c) => c.sampled).at(-1) ?? null;
  switch (rule.type) {
    case 'per_call': {
      const call = failed[0];
      if (!call) return null;
      const what = call.failures.map(label).join(', ') || 'a metric flagged it';
      return {
        firing: {
          summary: `A call failed: ${what}.`,
          observed: { failures: call.failures, seq: call.seq, failed_calls: failed.length },
        },
        call,
      };
    }
    case 'failure_count': {
      if (!lastFailed) return null;
      const recent: Array<{ outcome: string }> = await trx('monitor_calls')
        .where({ monitor_id: monitor.id, state: 'done', sampled: true })
        .whereIn('outcome', ['passed', 'failed'])
        .orderBy('seq', 'desc')
        .limit(rule.of_last)
        .select('outcome');
      const firing = failureCountFires(
        rule,
        recent.map((r) => r.outcome === 'failed'),
      );
      return firing && { firing, call: lastFailed };
    }
    case 'pass_rate': {
      if (judged.length === 0) return null;
      const window = await tally(trx, monitor.id, minutesAgo(now, rule.window_minutes), now);
      const firing = passRateFires(rule, window);
      return firing && { firing, call: lastFailed };
    }
    case 'drift': {
      if (judged.length === 0) return null;
      const start = minutesAgo(now, rule.window_minutes);
      const current = await tally(trx, monitor.id, start, now);
      const previous = await tally(trx, monitor.id, minutesAgo(now, 2 * rule.window_minutes), start);
      const firing = driftFires(rule, current, previous);
      return firing && { firing, call: lastFailed };
    }
    case 'new_failure': {
      if (failed.length === 0) return null;
      const seen: string[] = (
        await trx.raw(
          `select distinct f.key from monitor_calls c, jsonb_array_elements_text(c.failures) as f(key)
            where c.monitor_id = ? and c.state = 'done' and c.arrived_at >= ?
              and c.production_call_id <> all(?::uuid[])`,
          [
            monitor.id,
            new Date(now.getTime() - rule.lookback_days * 86_400_000),
            failed.map((c) => c.production_call_id),
          ],
        )
      ).rows.map((r: { key: string }) => r.key);
      const firing = newFailureFires(
        rule,
        failed.flatMap((c) => c.failures),
        new Set(seen),
        label,
      );
      const call = failed.find((c) => c.failures.some((key) => !seen.includes(key))) ?? null;
      return firing && { firing, call };
    }
  }
};

/**
 * Checks every rule against the calls just scored, and records an alert for each that fires and
 * is out of its cooldown, with its `monitor.alert.fired` event (the webhook outbox) in the same
 * transaction. Returns the webhook deliveries queued and the alerts recorded.
 */
export const raiseAlerts = async (
  trx: Knex,
  monitor: repo.MonitorRow,
  scored: readonly Scored[],
  names: ReadonlyMap<string, string>,
  now: Date,
) => {
  let deliveries = 0;
  let alerts = 0;
  for (const rule of monitor.rules) {
    const last = await repo.lastFiredAt(trx, monitor.id, rule.id);
    if (last && now.getTime() - last.getTime() < rule.cooldown_minutes * 60_000) continue;
    const fired = await check(trx, monitor, rule, scored, names, now);
    if (!fired) continue;
    const [alert] = (await trx('monitor_alerts')
      .insert({
        monitor_id: monitor.id,
        organization_id: monitor.organization_id,
        workspace_id: monitor.workspace_id,
        rule_id: rule.id,
        rule_type: rule.type,
        summary: fired.firing.summary,
        observed: JSON.stringify(fired.firing.observed),
        production_call_id: fired.call?.production_call_id ?? null,
        call_import_row_id: fired.call?.call_import_row_id ?? null,
        slack_status: monitor.slack_webhook_url_sealed ? 'pending' : 'none',
        fired_at: now,
      })
      .returning('*')) as repo.AlertRow[];
    alerts += 1;
    deliveries += await emitEvents(
      trx,
      [
        {
          organizationId: monitor.organization_id,
          type: 'monitor.alert.fired',
          data: {
            alert_id: alert!.id,
            monitor_id: monitor.id,
            workspace_id: monitor.workspace_id,
            agent_id: monitor.agent_id,
            rule_id: rule.id,
            rule_type: rule.type,
            summary: alert!.summary,
            observed: fired.firing.observed,
            production_call_id: alert!.production_call_id,
            evaluation_id: monitor.evaluation_id,
            fired_at: now.toISOString(),
          },
        },
      ],
      now,
    );
  }
  return { deliveries, alerts };
};
