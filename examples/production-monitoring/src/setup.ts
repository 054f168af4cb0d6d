import type { Agent, Integration, Metric, Monitor, MonitorRuleBody, VoiceEval } from '@voice-eval/sdk';

/** The live agent, as voice-eval knows it: production calls are filed under it. */
export const AGENT = {
  name: 'Order status line',
  description: 'The Retell agent that answers "where is my order?" calls.',
} as const;

/** The yes/no metrics the monitor judges each call with (a `false` answer flags the call). */
export const METRICS = {
  resolved: {
    name: 'Resolved the request',
    description: 'Passes when the caller left with an answer to what they called about.',
  },
  polite: {
    name: 'Stayed polite',
    description: 'Passes when the agent stayed courteous for the whole call.',
  },
} as const;

export const MONITOR_NAME = 'Order status line: production';

/**
 * The monitor's alert rules: every failing call, and 2 failures in the last 3 judged calls.
 * Cooldowns are the shortest allowed so a team trying the example sees the rules fire again soon.
 */
export const RULES: MonitorRuleBody[] = [
  { type: 'per_call', cooldown_minutes: 1 },
  { type: 'failure_count', failures: 2, of_last: 3, cooldown_minutes: 1 },
];

/** What the team has in its Retell dashboard. */
export interface RetellAccount {
  /** The Retell API key with the **webhook** badge: Retell signs its webhooks with it. */
  apiKey: string;
  /** The Retell agent whose calls are monitored (`agent_...`), kept in the integration's name. */
  agentId: string;
}

/** Options of {@link setupProductionMonitoring}. */
export interface SetupOptions {
  retell: RetellAccount;
  /** Where `monitor.alert.fired` events are POSTed (the team's own receiver, verified with `verifyWebhook`). */
  alertWebhookUrl: string;
  /** Share of calls the judge scores, 0..1. @default 1 (every call; production would use less) */
  sampleRate?: number;
}

/** What setup made, and what to paste where. */
export interface ProductionMonitoring {
  agent: Agent;
  metrics: { resolved: Metric; polite: Metric };
  integration: Integration;
  monitor: Monitor;
  webhookEndpointId: string;
  /**
   * The webhook endpoint's signing secret (`whsec_...`) for the alert receiver. The API shows it
   * only when the endpoint is created or its secret rotated, so a re-run rotates it.
   */
  webhookSecret: string;
  /** Paste into Retell: the agent's (or account's) **Webhook URL**. */
  ingestUrl: string;
}

const findAgent = async (client: VoiceEval) => {
  for await (const agent of client.agents.list({ q: AGENT.name, page_size: 100 })) {
    if (agent.name === AGENT.name) return agent;
  }
  return undefined;
};

const findMetric = async (client: VoiceEval, name: string) => {
  for await (const metric of client.metrics.list({ q: name, page_size: 100 })) {
    if (metric.name === name && metric.parent_metric_id === null) return metric;
  }
  return undefined;
};

const ensureMetric = async (client: VoiceEval, spec: { name: string; description: string }) =>
  (await findMetric(client, spec.name)) ??
  (await client.metrics.create({ ...spec, metric_type: 'boolean', capture_rationale: true }));

/**
 * Sets up monitoring of a live Retell agent, and can run again (what exists is reused):
 *
 * 1. the agent in voice-eval, which production calls are filed under;
 * 2. the Retell integration: `secret_key` is the Retell API key (it verifies `X-Retell-Signature`),
 *    `agent_id` the voice-eval agent; its `ingest_url` is what Retell must call;
 * 3. two boolean metrics and a monitor on the agent that judges `sampleRate` of the calls and
 *    alerts on a failing call and on 2 failures in the last 3;
 * 4. a webhook endpoint subscribed to `monitor.alert.fired`.
 */
export async function setupProductionMonitoring(
  client: VoiceEval,
  options: SetupOptions,
): Promise<ProductionMonitoring> {
  const agent =
    (await findAgent(client)) ??
    (await client.agents.create({ ...AGENT, call_type: 'inbound', call_medium: 'phone' }));

  const integrationName = `Retell ${options.retell.agentId}`;
  const existing = (await client.integrations.list({ platform: 'retell', page_size: 100 })).items.find(
    (i) => i.name === integrationName,
  );
  const integration = existing
    ? await client.integrations.update(existing.id, {
        secret_key: options.retell.apiKey,
        agent_id: agent.id,
        is_active: true,
      })
    : await client.integrations.create({
        platform: 'retell',
        name: integrationName,
        secret_key: options.retell.apiKey,
        agent_id: agent.id,
      });
  if (!integration.ingest_url) throw new Error(`Integration ${integration.id} has no ingest_url`);

  const metrics = {
    resolved: await ensureMetric(client, METRICS.resolved),
    polite: await ensureMetric(client, METRICS.polite),
  };
  const monitorBody = {
    metric_ids: [metrics.resolved.id, metrics.polite.id],
    sample_rate: options.sampleRate ?? 1,
    rules: RULES,
  };
  const current = (await client.monitors.list({ agent_id: agent.id, page_size: 100 })).items.find(
    (m) => m.name === MONITOR_NAME,
  );
  const monitor = current
    ? await client.monitors.update(current.id, { ...monitorBody, is_active: true })
    : await client.monitors.create({ agent_id: agent.id, name: MONITOR_NAME, ...monitorBody });

  const endpoints = await client.webhookEndpoints.list({ page_size: 100 }).toArray({ limit: 1000 });
  const known = endpoints.find((e) => e.url === options.alertWebhookUrl);
  const endpoint = known
    ? await client.webhookEndpoints.rotateSecret(
        (
          await client.webhookEndpoints.update(known.id, {
            events: [...new Set([...known.events, 'monitor.alert.fired' as const])],
            enabled: true,
          })
        ).id,
      )
    : await client.webhookEndpoints.create({
        url: options.alertWebhookUrl,
        events: ['monitor.alert.fired'],
        description: `Alerts of ${MONITOR_NAME}`,
      });

  return {
    agent,
    metrics,
    integration,
    monitor,
    webhookEndpointId: endpoint.id,
    webhookSecret: endpoint.secret,
    ingestUrl: integration.ingest_url,
  };
}
