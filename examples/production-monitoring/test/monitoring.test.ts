import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type ResponseBody, VoiceEval } from '@voice-eval/sdk';
import { createVoiceEvalServer, type VoiceEvalServer } from '@voice-eval/server';
import { type JudgeDouble, startJudgeDouble } from '@voice-eval/server/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type CallScript,
  callAnalyzed,
  callEnded,
  deliver,
  type RetellWebhook,
  retellSignature,
} from '../src/retell.js';
import { type ProductionMonitoring, setupProductionMonitoring } from '../src/setup.js';
import { startAlertReceiver } from './alert-receiver.js';

const RETELL_API_KEY = 'key_retell_webhook_badge_0123456789';
const RETELL_AGENT_ID = 'agent_8a1f0c2d3e4b5a6978';
/** What a caller says when the agent did not help: the judge double fails every metric on it. */
const UNHELPED = "I still don't know where my order is";

/** Background work (scoring, alerts, webhook deliveries) is awaited by polling, never by sleeping. */
const POLL = { timeout: 60_000, interval: 100 };

let judge: JudgeDouble;
let receiver: Awaited<ReturnType<typeof startAlertReceiver>>;
let server: VoiceEvalServer;
let dataDir: string;
let baseUrl: string;
let client: VoiceEval;
let setup: ProductionMonitoring;

/**
 * A real server on a temp data dir (embedded PGlite) whose default LLM is the judge double: it
 * passes every metric of a call, unless the caller says {@link UNHELPED}.
 */
beforeAll(async () => {
  judge = await startJudgeDouble({
    // the metrics are booleans: false flags the call
    answer: (_metric, transcript) => !transcript.includes(UNHELPED),
    rationale: (_metric, transcript) =>
      transcript.includes(UNHELPED) ? 'The caller left without an answer.' : 'The caller got an answer.',
  });
  receiver = await startAlertReceiver();
  dataDir = await mkdtemp(join(tmpdir(), 'voice-eval-production-monitoring-'));
  server = createVoiceEvalServer({
    dataDir,
    logLevel: 'silent',
    // the alert receiver is on loopback, which server-side fetches (webhooks too) refuse unless allowed
    fetchAllowlist: ['127.0.0.1'],
    env: {
      VOICE_EVAL_LLM_BASE_URL: judge.url,
      VOICE_EVAL_LLM_API_KEY: 'sk-judge-double',
      VOICE_EVAL_LLM_MODEL: 'gpt-4o-mini',
      // nothing here may reach Retell's real API with the test's made-up key
      VOICE_EVAL_RETELL_API_URL: 'http://127.0.0.1:9',
    },
  });
  ({ url: baseUrl } = await server.listen(0));

  // What the team does once: sign up, then make an API key for its scripts.
  const session = await new VoiceEval({ baseUrl, logLevel: 'off' }).auth.signup({
    email: 'oncall@example.test',
    password: 'correct horse battery staple',
    organization_name: 'Parcel Co',
  });
  const owner = new VoiceEval({ baseUrl, accessToken: session.access_token, logLevel: 'off' });
  const { key } = await owner.auth.generateKey({ name: 'monitoring setup' });
  client = new VoiceEval({ baseUrl, apiKey: key, logLevel: 'off' });
}, 120_000);
afterAll(async () => {
  await server?.close();
  await Promise.all([judge?.close(), receiver?.close()]);
  if (dataDir) await rm(dataDir, { recursive: true, force: true });
});

/** The calls the live agent had: one helped the caller, two did not. */
const script = (callId: string, helped: boolean): CallScript => ({
  callId,
  agentId: RETELL_AGENT_ID,
  lines: [
    { role: 'agent', text: 'Thanks for calling Parcel Co, how can I help?' },
    { role: 'user', text: 'Where is my order 1042?' },
    helped
      ? { role: 'agent', text: 'It left the depot this morning and arrives tomorrow.' }
      : { role: 'agent', text: 'Sorry, I cannot look orders up right now.' },
    helped ? { role: 'user', text: 'Great, thanks.' } : { role: 'user', text: `${UNHELPED}. Bye.` },
  ],
  metadata: { crm_customer_id: `cust-${callId}` },
});
const CALLS = {
  helped: callEnded(script('call_0a1b2c3d4e5f', true)),
  unhelpedFirst: callEnded(script('call_1b2c3d4e5f6a', false)),
  unhelpedSecond: callEnded(script('call_2c3d4e5f6a7b', false)),
};
/** `ProductionCall` is not exported by the SDK (unlike `Monitor`): read it off the route. */
type ProductionCall = ResponseBody<'productionCalls', 'get'>;
const calls = new Map<string, ProductionCall>();

const retellCalls = async () =>
  client.productionCalls.list({ provider: 'retell', page_size: 100 }).toArray({ limit: 100 });

describe('monitoring a live Retell agent', { timeout: 120_000 }, () => {
  it('sets up the agent, the Retell integration, metrics, a monitor and an alert webhook', async () => {
    setup = await setupProductionMonitoring(client, {
      retell: { apiKey: RETELL_API_KEY, agentId: RETELL_AGENT_ID },
      alertWebhookUrl: receiver.url,
    });
    receiver.setSecret(setup.webhookSecret);

    expect(setup.ingestUrl).toBe(`${baseUrl}/api/v1/ingest/retell/${setup.integration.id}`);
    expect(setup.integration).toMatchObject({
      platform: 'retell',
      agent_id: setup.agent.id,
      is_active: true,
    });
    expect(setup.webhookSecret).toMatch(/^whsec_/);
    expect(setup.monitor).toMatchObject({
      agent_id: setup.agent.id,
      metric_ids: [setup.metrics.resolved.id, setup.metrics.polite.id],
      sample_rate: 1,
      is_active: true,
      calls_seen: 0,
      calls_sampled: 0,
    });
    expect(setup.monitor.rules.map((r) => [r.type, typeof r.id])).toEqual([
      ['per_call', 'string'],
      ['failure_count', 'string'],
    ]);

    // running it again reuses what exists (and rotates the webhook secret, the only way to see it)
    const again = await setupProductionMonitoring(client, {
      retell: { apiKey: RETELL_API_KEY, agentId: RETELL_AGENT_ID },
      alertWebhookUrl: receiver.url,
    });
    expect([again.agent.id, again.integration.id, again.monitor.id, again.webhookEndpointId]).toEqual([
      setup.agent.id,
      setup.integration.id,
      setup.monitor.id,
      setup.webhookEndpointId,
    ]);
    expect(again.webhookSecret).not.toBe(setup.webhookSecret);
    setup = again;
    receiver.setSecret(setup.webhookSecret);
  });

  it('files each call Retell delivers under the agent, with its turns', async () => {
    for (const webhook of Object.values(CALLS)) {
      const answer = await deliver(setup.ingestUrl, webhook, RETELL_API_KEY);
      expect(answer).toMatchObject({
        status: 200,
        body: { received: true, deduplicated: false, ignored: null, production_call_id: expect.any(String) },
      });
    }

    const listed = await retellCalls();
    expect(listed.map((c) => c.external_call_id).sort()).toEqual(
      Object.values(CALLS)
        .map((w) => w.call.call_id)
        .sort(),
    );
    for (const call of listed) {
      const sent = Object.values(CALLS).find((w) => w.call.call_id === call.external_call_id)!.call;
      calls.set(call.external_call_id, call);
      expect(call).toMatchObject({
        provider: 'retell',
        agent_id: setup.agent.id,
        integration_id: setup.integration.id,
        started_at: new Date(sent.start_timestamp).toISOString(),
        ended_at: new Date(sent.end_timestamp).toISOString(),
        duration_ms: sent.duration_ms,
        end_reason: 'user_hangup',
        turn_count: 4,
        events: ['call_ended'],
        recording_status: 'none',
      });
      // the turns are the call's row in the agent's production import, timed by their words
      const row = await client.callImports.getRow(call.call_import_id, call.call_import_row_id);
      expect(row.diarised_transcript).toEqual(
        sent.transcript_object.map((u) => ({
          speaker: u.role,
          text: u.content,
          start_ms: Math.round(u.words[0]!.start * 1000),
          end_ms: Math.round(u.words.at(-1)!.end * 1000),
        })),
      );
    }
    const production = await client.callImports.get(listed[0]!.call_import_id);
    expect(production).toMatchObject({ source_format: 'production', total_rows: 3 });
  });

  it('deduplicates a redelivery (Retell retries with a fresh signature)', async () => {
    const first = calls.get(CALLS.helped.call.call_id)!;
    const retry = await deliver(setup.ingestUrl, CALLS.helped, RETELL_API_KEY, {
      signedAt: new Date(Date.now() + 1000),
    });
    expect(retry).toMatchObject({
      status: 200,
      body: { received: true, production_call_id: first.id, deduplicated: true },
    });
    expect(await retellCalls()).toHaveLength(3);
  });

  it('refuses a tampered body and a stale signature with a 401 problem, storing nothing', async () => {
    const forged = callEnded(script('call_forged000001', true));
    const tampered = await deliver(setup.ingestUrl, forged, RETELL_API_KEY, {
      sendInstead: JSON.stringify({
        ...forged,
        call: { ...forged.call, disconnection_reason: 'agent_hangup' },
      }),
    });
    const stale = await deliver(setup.ingestUrl, forged, RETELL_API_KEY, {
      signedAt: new Date(Date.now() - 6 * 60_000),
    });
    const wrongKey = await deliver(setup.ingestUrl, forged, 'key_not_the_webhook_key');
    for (const refused of [tampered, stale, wrongKey]) {
      expect(refused.status).toBe(401);
      expect(refused.contentType).toMatch(/^application\/problem\+json/);
      expect(refused.body).toMatchObject({ status: 401, code: expect.any(String) });
    }
    expect((await retellCalls()).map((c) => c.external_call_id)).not.toContain(forged.call.call_id);
  });

  it('takes the SDK ingest helper as Retell, and ignores events that carry no finished call', async () => {
    const started: RetellWebhook = { ...callEnded(script('call_3d4e5f6a7b8c', true)), event: 'call_started' };
    // the SDK sends the body as JSON.stringify writes it: sign those bytes
    const receipt = await client.productionCalls.ingest(
      'retell',
      setup.integration.id,
      { ...started },
      {
        headers: { 'x-retell-signature': retellSignature(JSON.stringify(started), RETELL_API_KEY) },
      },
    );
    expect(receipt).toMatchObject({ received: true, production_call_id: null, ignored: expect.any(String) });
    expect(await retellCalls()).toHaveLength(3);
  });

  it('scores every call into the monitor evaluation, failing the ones where the caller got no help', async () => {
    await expect
      .poll(async () => {
        const m = await client.monitors.get(setup.monitor.id);
        return { seen: m.calls_seen, sampled: m.calls_sampled };
      }, POLL)
      .toEqual({ seen: 3, sampled: 3 });
    const monitor = await client.monitors.get(setup.monitor.id);
    expect(monitor.evaluation_id).toEqual(expect.any(String));
    const evaluationId = monitor.evaluation_id!;
    const rows = async () =>
      client.evaluations.listRows(evaluationId, { page_size: 100 }).toArray({ limit: 100 });
    await expect
      .poll(async () => (await rows()).filter((r) => r.status === 'completed').length, POLL)
      .toBe(3);

    const byRow = new Map([...calls.values()].map((c) => [c.call_import_row_id, c.external_call_id]));
    const verdicts = Object.fromEntries(
      (await rows()).map((row) => [
        byRow.get(row.call_import_row_id),
        row.results.map((r) => `${r.metric_name}=${String(r.value)}${r.flagged ? ' (flagged)' : ''}`).sort(),
      ]),
    );
    const passed = ['Resolved the request=true', 'Stayed polite=true'];
    const failed = ['Resolved the request=false (flagged)', 'Stayed polite=false (flagged)'];
    expect(verdicts).toEqual({
      [CALLS.helped.call.call_id]: passed,
      [CALLS.unhelpedFirst.call.call_id]: failed,
      [CALLS.unhelpedSecond.call.call_id]: failed,
    });
    expect(judge.calls).toHaveLength(3);
    expect((await client.evaluations.get(evaluationId)).status).toBe('running');
  });

  it('fires alerts for the failing calls, in the history and to the verified webhook receiver', async () => {
    const failing = [CALLS.unhelpedFirst, CALLS.unhelpedSecond].map((w) => calls.get(w.call.call_id)!.id);
    const alerts = async () => client.monitors.alerts(setup.monitor.id).toArray({ limit: 100 });
    await expect
      .poll(async () => (await alerts()).map((a) => a.rule_type).sort(), POLL)
      .toEqual(['failure_count', 'per_call']);
    const history = await alerts();
    for (const alert of history) {
      expect(alert).toMatchObject({ monitor_id: setup.monitor.id, slack_status: 'none' });
      expect(failing).toContain(alert.production_call_id);
      expect(setup.monitor.rules.find((r) => r.type === alert.rule_type)?.id).toBe(alert.rule_id);
    }
    const count = history.find((a) => a.rule_type === 'failure_count')!;
    expect(count.production_call_id).toBe(calls.get(CALLS.unhelpedSecond.call.call_id)!.id);

    await expect.poll(() => receiver.received.length, POLL).toBe(2);
    expect(receiver.received.every((r) => r.verified)).toBe(true);
    const events = receiver.received.flatMap((r) => (r.verified ? [r.event] : []));
    for (const alert of history) {
      const event = events.find((e) => e.type === 'monitor.alert.fired' && e.data.alert_id === alert.id);
      expect(event).toMatchObject({
        type: 'monitor.alert.fired',
        data: {
          monitor_id: setup.monitor.id,
          agent_id: setup.agent.id,
          rule_id: alert.rule_id,
          rule_type: alert.rule_type,
          summary: alert.summary,
          production_call_id: alert.production_call_id,
          evaluation_id: (await client.monitors.get(setup.monitor.id)).evaluation_id,
        },
      });
    }
  });

  it("merges Retell's call_analyzed into the call it follows", async () => {
    const analyzed = callAnalyzed(CALLS.helped, {
      call_summary: 'The caller asked where order 1042 is and was told it arrives tomorrow.',
      user_sentiment: 'Positive',
      call_successful: true,
      in_voicemail: false,
    });
    const answer = await deliver(setup.ingestUrl, analyzed, RETELL_API_KEY);
    const call = calls.get(CALLS.helped.call.call_id)!;
    expect(answer).toMatchObject({
      status: 200,
      body: { production_call_id: call.id, deduplicated: false },
    });
    const merged = await client.productionCalls.get(call.id);
    expect(merged.events).toEqual(['call_ended', 'call_analyzed']);
    expect(merged.turn_count).toBe(4);
    // what the call keeps of Retell's fields, the analysis included, is its metadata
    expect(merged.metadata).toMatchObject({
      retell_agent_id: RETELL_AGENT_ID,
      user_sentiment: 'Positive',
      call_successful: true,
    });
    // the same event again is a replay
    const replay = await deliver(setup.ingestUrl, analyzed, RETELL_API_KEY);
    expect(replay.body).toMatchObject({ production_call_id: call.id, deduplicated: true });
    // a call is one call to the monitor, whatever follows it
    expect((await client.monitors.get(setup.monitor.id)).calls_seen).toBe(3);
  });
});
