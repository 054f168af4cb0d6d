import { randomUUID } from 'node:crypto';
import type { ClientOptions, VoiceEval } from '@voice-eval/sdk';
import type { OpenAiDouble } from '../../src/testing/openai-compatible.js';
import { CASCADED, importCalls, makeMetric, unique } from '../sdk-e2e/fixtures.js';
import type { SdkHarness } from '../sdk-e2e/sdk-harness.js';

/** What the drivers of the conformance test share: clients whose traffic is recorded. */
export type Drive = {
  h: SdkHarness;
  /** The tenant owner (bearer token and refresh token). */
  client: VoiceEval;
  /** No credentials: the public routes. */
  anonymous: VoiceEval;
  /** The server's default LLM (chat replies are scripted per test). */
  double: OpenAiDouble;
  /** Options every further client needs (the recording `fetch`). */
  options: ClientOptions;
};

const PASSWORD = 'correct horse battery staple';

/** Sessions, the caller, API keys, workspaces and invitations. */
export const driveAccess = async ({ h, client, anonymous, options }: Drive) => {
  await anonymous.auth.config();
  const email = `conformance-${randomUUID()}@example.test`;
  const signedUp = await anonymous.auth.signup({
    email,
    password: PASSWORD,
    organization_name: 'Conformance',
  });
  const loggedIn = await anonymous.auth.login({ email, password: PASSWORD });
  await anonymous.auth.refresh({ refresh_token: signedUp.refresh_token });
  await anonymous.auth.logout({ refresh_token: loggedIn.refresh_token });

  const key = await client.auth.generateKey({ name: 'conformance' });
  const withKey = await h.sdkWithApiKey(h, options);
  await client.auth.me();
  await withKey.auth.me();
  await client.auth.switchOrg({ organization_id: h.organizationId });
  await client.apiKeys.list();
  await client.apiKeys.revoke(key.id);

  const workspace = await client.workspaces.create({ name: unique('Workspace') });
  await client.workspaces.get(workspace.id);
  await client.workspaces.update(workspace.id, { name: unique('Renamed') });
  await client.workspaces.list({ page: 1, page_size: 5 });

  const invitation = await client.invitations.create({
    email: `invitee-${randomUUID()}@example.test`,
    role: 'MEMBER',
  });
  await anonymous.auth.invitationPreview(invitation.token);
  await anonymous.invitations.accept({ token: invitation.token, password: PASSWORD });
};

/** Organization settings and workspace catalogues: AI providers, integrations, tags, voice bundles. */
export const driveSettings = async ({ client, double }: Drive) => {
  const provider = await client.aiProviders.create({
    provider: 'openai_compatible',
    name: unique('Provider'),
    api_key: 'sk-conformance-0123456789abcdef',
    endpoint_url: double.url,
  });
  await client.aiProviders.get(provider.id);
  await client.aiProviders.update(provider.id, { name: unique('Provider') });
  await client.aiProviders.list({ is_active: true });
  await client.aiProviders.test(provider.id);
  await client.aiProviders.delete(provider.id);

  const integration = await client.integrations.create({
    platform: 'vapi',
    name: unique('Integration'),
    secret_key: 'sk-integration-0123456789',
    public_key: 'pk_live_conformance',
  });
  await client.integrations.get(integration.id);
  await client.integrations.update(integration.id, { name: unique('Integration') });
  await client.integrations.list();
  // nothing answers at the Vapi API from here: the failure is in the result
  await client.integrations.test(integration.id);
  await client.integrations.delete(integration.id);

  const tag = await client.tags.create({ name: unique('Tag') });
  await client.tags.list();
  await client.tags.delete(tag.id);

  const bundle = await client.voiceBundles.create({ name: unique('Bundle'), ...CASCADED });
  await client.voiceBundles.get(bundle.id);
  await client.voiceBundles.update(bundle.id, { name: unique('Bundle') });
  await client.voiceBundles.list({ is_active: true });
  await client.voiceBundles.delete(bundle.id);
};

/** Webhook endpoints: CRUD, the secret's rotation, a ping, the delivery log and a redelivery. */
export const driveWebhooks = async ({ h, client }: Drive) => {
  const endpoint = await client.webhookEndpoints.create({
    url: 'http://127.0.0.1:9/hooks',
    events: ['evaluation.completed'],
  });
  await client.webhookEndpoints.get(endpoint.id);
  await client.webhookEndpoints.update(endpoint.id, { description: unique('Hook') });
  await client.webhookEndpoints.list({ enabled: true });
  await client.webhookEndpoints.rotateSecret(endpoint.id);
  const ping = await client.webhookEndpoints.ping(endpoint.id);
  // nothing listens on port 9: end the delivery rather than wait out its retries (clearing the
  // lease fences an attempt in flight, whose final write then changes nothing)
  await h
    .db('webhook_deliveries')
    .where({ id: ping.id })
    .update({ status: 'failed', lease_owner: null, lease_expires_at: null });
  await client.webhookEndpoints.listDeliveries(endpoint.id, { status: 'failed' });
  await client.webhookEndpoints.redeliver(endpoint.id, ping.id);
  await client.webhookEndpoints.delete(endpoint.id);
};

/** Production calls: a submit and its repeat, the list and one read, and a Vapi delivery. */
export const driveProductionCalls = async ({ client, anonymous }: Drive) => {
  const agent = await client.agents.create({
    name: unique('Live agent'),
    call_type: 'inbound',
    call_medium: 'phone',
  });
  const body = {
    agent_id: agent.id,
    external_call_id: unique('lk'),
    provider: 'livekit',
    transcript: [{ role: 'agent' as const, text: 'Hello', start_ms: 0, end_ms: 900 }],
  };
  const submitted = await client.productionCalls.submit(body);
  await client.productionCalls.submit(body);
  await client.productionCalls.get(submitted.production_call.id);
  await client.productionCalls.list({ agent_id: agent.id, provider: 'livekit' });
  const vapi = await client.integrations.create({
    platform: 'vapi',
    name: unique('Vapi'),
    secret_key: 'vapi-private-key',
    agent_id: agent.id,
  });
  const report = {
    message: { type: 'end-of-call-report', call: { id: unique('vapi-call') }, artifact: { messages: [] } },
  };
  await anonymous.productionCalls.ingest('vapi', vapi.id, report, {
    headers: { 'x-vapi-secret': vapi.ingest_token! },
  });
};

/** Monitors: create, read, list, change, the alert history, and delete. */
export const driveMonitors = async ({ client }: Drive) => {
  const agent = await client.agents.create({
    name: unique('Monitored agent'),
    call_type: 'inbound',
    call_medium: 'phone',
  });
  const metric = await client.metrics.create({ name: unique('Resolved') });
  const monitor = await client.monitors.create({
    agent_id: agent.id,
    name: unique('Monitor'),
    metric_ids: [metric.id],
    sample_rate: 0.5,
    rules: [{ type: 'pass_rate', below: 0.8, window_minutes: 60 }],
  });
  await client.monitors.get(monitor.id);
  await client.monitors.list({ agent_id: agent.id });
  await client.monitors.update(monitor.id, { rules: [{ type: 'per_call' }], is_active: false });
  await client.monitors.alerts(monitor.id);
  await client.monitors.calls(monitor.id, { sampled: true, outcome: 'passed' });
  await client.monitors.delete(monitor.id);
};

/** Review queues: sample an import, take a call, give it back, take it again, label it, finish it. */
export const driveReviewQueues = async ({ client }: Drive) => {
  const metric = await makeMetric(client, { metric_type: 'boolean' });
  const calls = await importCalls(client, [
    { id: unique('review-call'), transcript: 'Agent: Hello.\nUser: Bye.' },
    { id: unique('review-call'), transcript: 'Agent: Hi.\nUser: Thanks.' },
  ]);
  const queue = await client.reviewQueues.create({
    name: unique('Review'),
    source: { kind: 'call_import', call_import_id: calls.id },
    metric_ids: [metric.id],
    sample_size: 1,
    seed: 7,
  });
  await client.reviewQueues.list({ page: 1, page_size: 5 });
  const { item } = await client.reviewQueues.next(queue.id);
  await client.reviewQueues.release(queue.id, item!.id);
  const again = (await client.reviewQueues.next(queue.id)).item!;
  await client.metrics.setLabel(metric.id, again.call_import_row_id, { value: true });
  await client.reviewQueues.complete(queue.id, again.id);
  await client.reviewQueues.items(queue.id, { status: 'done' });
  await client.reviewQueues.get(queue.id);
  await client.reviewQueues.delete(queue.id);
};
