import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeEvaluation } from '../../test/factories/dispatch.js';
import { createHarness, type Harness } from '../../test/harness.js';
import { chatReply, errorReply, type OpenAiDouble, startOpenAiDouble } from '../testing/openai-compatible.js';
import { recordWebhookDelivery } from './metrics.js';

const TOKEN = 'metrics-token-0123456789';
let h: Harness;
let double: OpenAiDouble;
beforeAll(async () => {
  double = await startOpenAiDouble();
  h = await createHarness({
    metrics: true,
    metricsToken: TOKEN,
    // rows stay where the test puts them
    workerConcurrency: 0,
    orgLimit: 3,
    workspaceLimit: 2,
    env: {
      VOICE_EVAL_LLM_BASE_URL: double.url,
      VOICE_EVAL_LLM_API_KEY: 'sk-server-default-0123456789',
      VOICE_EVAL_LLM_MODEL: 'gpt-4o-mini',
    },
  });
});
afterAll(() => double.close());

const scrape = async () => {
  const res = await fetch(`${h.url}/metrics`, { headers: { authorization: `Bearer ${TOKEN}` } });
  expect(res.status).toBe(200);
  return { text: await res.text(), contentType: res.headers.get('content-type') };
};

/** The samples of one metric: label sets (as written) to values. */
const samples = (text: string, name: string): Map<string, number> => {
  const out = new Map<string, number>();
  for (const line of text.split('\n')) {
    const match = line.match(/^([a-z_]+)(\{[^}]*\})? (\S+)$/);
    if (match && match[1] === name) out.set(match[2] ?? '', Number(match[3]));
  }
  return out;
};
const value = (text: string, name: string, labels: string) => samples(text, name).get(labels);

describe('GET /metrics', () => {
  it('needs the bearer token when one is configured', async () => {
    const none = await h.request('GET', '/metrics');
    expect(none.status).toBe(401);
    expect(none.headers.get('www-authenticate')).toBe('Bearer realm="metrics"');
    expect(none.headers.get('content-type')).toContain('application/problem+json');
    const wrong = await h.request('GET', '/metrics', {
      headers: { authorization: 'Bearer not-the-token-at-all' },
    });
    expect(wrong.status).toBe(401);
    // an API credential is not the metrics token
    const apiKey = await h.request('GET', '/metrics', { headers: await h.apiKey() });
    expect(apiKey.status).toBe(401);
    const { text, contentType } = await scrape();
    expect(contentType).toBe('text/plain; version=0.0.4; charset=utf-8');
    expect(text).toContain('# TYPE voice_eval_http_request_duration_seconds histogram');
    // the default process metrics of this instance
    expect(text).toContain('process_cpu_seconds_total');
  });

  it('times requests by route template and status: many ids in paths make one series', async () => {
    const headers = await h.apiKey();
    const ids = Array.from({ length: 25 }, () => randomUUID());
    for (const id of ids) {
      expect((await h.request('GET', `/api/v1/workspaces/${id}`, { headers })).status).toBe(404);
      expect((await h.request('GET', `/no/such/route/${id}`, { headers })).status).toBe(404);
    }
    expect((await h.request('GET', `/api/v1/workspaces/${h.workspaceId}`, { headers })).status).toBe(200);
    const { text } = await scrape();
    const counts = samples(text, 'voice_eval_http_request_duration_seconds_count');
    expect(counts.get('{method="GET",route="/api/v1/workspaces/:workspace_id",status="404"}')).toBe(25);
    expect(counts.get('{method="GET",route="/api/v1/workspaces/:workspace_id",status="200"}')).toBe(1);
    expect(counts.get('{method="GET",route="unmatched",status="404"}')).toBe(25);
    // no path, id or tenant anywhere in the output
    for (const id of [...ids, h.workspaceId, h.organizationId]) expect(text).not.toContain(id);
    expect(counts.size).toBeLessThan(10);
  });

  it('labels a request answered before routing with its parameter-free template', async () => {
    const bad = await h.request('POST', '/api/v1/auth/login', { body: '{not json' });
    expect(bad.status).toBe(400);
    const { text } = await scrape();
    expect(
      value(
        text,
        'voice_eval_http_request_duration_seconds_count',
        '{method="POST",route="/api/v1/auth/login",status="400"}',
      ),
    ).toBe(1);
  });

  it('counts model calls, errors, latency and tokens by provider', async () => {
    const member = await h.as('MEMBER');
    const body = { mode: 'description', input: 'the agent confirms the appointment time' };
    double.enqueue(
      '/v1/chat/completions',
      chatReply(
        {
          name: 'Confirms time',
          description: 'Repeats the booked time.',
          metric_type: 'boolean',
          custom_data_type: 'boolean',
          custom_config: { min: null, max: null, labels: [] },
          suggested_tags: [],
        },
        { prompt_tokens: 11, completion_tokens: 7 },
      ),
    );
    expect((await h.request('POST', '/api/v1/metrics/generate', { headers: member, body })).status).toBe(200);
    double.enqueue('/v1/chat/completions', errorReply(400, 'bad request'));
    expect(
      (await h.request('POST', '/api/v1/metrics/generate', { headers: member, body })).status,
    ).toBeGreaterThanOrEqual(400);

    const { text } = await scrape();
    const chat = 'provider="default",kind="chat"';
    expect(value(text, 'voice_eval_model_calls_total', `{${chat},outcome="ok"}`)).toBe(1);
    expect(value(text, 'voice_eval_model_calls_total', `{${chat},outcome="error"}`)).toBe(1);
    expect(value(text, 'voice_eval_model_call_errors_total', `{${chat},code="provider_error"}`)).toBe(1);
    expect(value(text, 'voice_eval_model_call_duration_seconds_count', `{${chat}}`)).toBe(2);
    expect(value(text, 'voice_eval_model_tokens_total', `{${chat},type="prompt"}`)).toBe(11);
    expect(value(text, 'voice_eval_model_tokens_total', `{${chat},type="completion"}`)).toBe(7);
  });

  it('reads work items by kind and state, and in-flight items against each dispatch limit, at scrape time', async () => {
    const idle = await scrape();
    expect(value(idle.text, 'voice_eval_work_items', '{kind="evaluation_row.score",state="pending"}')).toBe(
      0,
    );
    expect(
      value(idle.text, 'voice_eval_work_items', '{kind="call_import_row.diarise",state="running"}'),
    ).toBe(0);
    expect(value(idle.text, 'voice_eval_dispatch_in_flight', '{scope="global"}')).toBe(0);
    expect(value(idle.text, 'voice_eval_dispatch_limit', '{scope="organization"}')).toBe(3);
    expect(value(idle.text, 'voice_eval_dispatch_limit', '{scope="workspace"}')).toBe(2);

    const tenant = { organizationId: h.organizationId, workspaceId: h.workspaceId };
    const evaluation = await makeEvaluation(h.db, tenant, 5);
    const other = await h.createTenant();
    await makeEvaluation(h.db, other, 1);
    const rows = await h.db('evaluation_rows').where({ evaluation_id: evaluation.id }).limit(2).pluck('id');
    await h
      .db('evaluation_rows')
      .whereIn('id', rows)
      .update({
        status: 'running',
        lease_owner: 'test:lease',
        lease_expires_at: new Date(Date.now() + 3_600_000),
      });

    const { text } = await scrape();
    expect(value(text, 'voice_eval_work_items', '{kind="evaluation_row.score",state="pending"}')).toBe(4);
    expect(value(text, 'voice_eval_work_items', '{kind="evaluation_row.score",state="running"}')).toBe(2);
    expect(value(text, 'voice_eval_dispatch_in_flight', '{scope="global"}')).toBe(2);
    expect(value(text, 'voice_eval_dispatch_in_flight', '{scope="organization"}')).toBe(2);
    expect(value(text, 'voice_eval_dispatch_in_flight', '{scope="workspace"}')).toBe(2);
    // the workspace is at its limit of 2; its organization (limit 3) is not
    expect(value(text, 'voice_eval_dispatch_at_limit', '{scope="workspace"}')).toBe(1);
    expect(value(text, 'voice_eval_dispatch_at_limit', '{scope="organization"}')).toBe(0);
    for (const id of [h.organizationId, other.organizationId, evaluation.id]) expect(text).not.toContain(id);
  });

  it('counts webhook deliveries by outcome through recordWebhookDelivery', async () => {
    const before = await scrape();
    expect(value(before.text, 'voice_eval_webhook_deliveries_total', '{outcome="delivered"}')).toBe(0);
    recordWebhookDelivery(h.server.deps, 'delivered');
    recordWebhookDelivery(h.server.deps, 'delivered');
    recordWebhookDelivery(h.server.deps, 'failed');
    const { text } = await scrape();
    expect(value(text, 'voice_eval_webhook_deliveries_total', '{outcome="delivered"}')).toBe(2);
    expect(value(text, 'voice_eval_webhook_deliveries_total', '{outcome="failed"}')).toBe(1);
    expect(value(text, 'voice_eval_webhook_deliveries_total', '{outcome="exhausted"}')).toBe(0);
  });
});
