import type { Deps } from '../../deps.js';
import type { AddressPolicy } from '../../net/address-policy.js';
import { safeFetch } from '../../net/safe-fetch.js';
import type { AlertRow } from './repo.js';
import { slackContext } from './service.js';

/** Posts an alert gets before it is given up (`failed`). */
export const SLACK_MAX_ATTEMPTS = 5;

/** The pause before post n+1 of an alert: 5 s, 10 s, 20 s, 40 s. */
const retryDelayMs = (attempts: number) => 5_000 * 2 ** Math.max(0, attempts - 1);

/** Slack's incoming-webhook message: the rule's sentence, and where to look. */
const messageOf = (alert: AlertRow, monitorName: string) => ({
  text: `:rotating_light: ${monitorName}: ${alert.summary}`,
});

/**
 * Posts a monitor's due Slack alerts through the SSRF-safe fetch (no redirects). A failed post is
 * tried again after a back-off, up to `SLACK_MAX_ATTEMPTS`; the alert itself (and its webhook
 * event) never depends on Slack. Returns how many posts were attempted.
 */
export const postDueSlackAlerts = async (
  deps: Deps,
  policy: AddressPolicy,
  monitorId: string,
  signal: AbortSignal,
): Promise<number> => {
  const monitor = await deps
    .db('monitors')
    .where({ id: monitorId })
    .first('name', 'slack_webhook_url_sealed');
  const due: AlertRow[] = await deps
    .db('monitor_alerts')
    .where({ monitor_id: monitorId, slack_status: 'pending' });
  const now = deps.now().getTime();
  let attempted = 0;
  for (const alert of due) {
    if (signal.aborted) break;
    if (alert.slack_attempts > 0 && now < alert.fired_at.getTime() + retryDelayMs(alert.slack_attempts))
      continue;
    if (!monitor?.slack_webhook_url_sealed) {
      await deps.db('monitor_alerts').where({ id: alert.id }).update({ slack_status: 'none' });
      continue;
    }
    attempted += 1;
    const url = deps.secrets.open(monitor.slack_webhook_url_sealed, slackContext(monitorId));
    const answer = await safeFetch(url, {
      policy,
      method: 'POST',
      body: JSON.stringify(messageOf(alert, monitor.name)),
      headers: { 'content-type': 'application/json', 'user-agent': 'voice-eval-monitors' },
      maxBytes: 4096,
      truncate: true,
      redirect: 'refuse',
      timeoutMs: deps.config.webhookTimeoutMs,
      signal,
    });
    const attempts = alert.slack_attempts + 1;
    const status = answer.ok ? 'sent' : attempts >= SLACK_MAX_ATTEMPTS ? 'failed' : 'pending';
    if (!answer.ok) deps.logger.warn({ alertId: alert.id, code: answer.code }, 'monitor:slack_failed');
    await deps
      .db('monitor_alerts')
      .where({ id: alert.id })
      .update({ slack_status: status, slack_attempts: attempts });
  }
  return attempted;
};
