import { MetricSuggestionSchema } from '@voice-eval/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { describeAccessRules, expectProblem } from '../../../test/access-rules.js';
import { createHarness, type Harness } from '../../../test/harness.js';
import {
  chatReply,
  errorReply,
  type OpenAiDouble,
  startOpenAiDouble,
} from '../../testing/openai-compatible.js';

/** `h` has the server default provider on `double`; `bare` has no provider at all. */
let h: Harness;
let bare: Harness;
let double: OpenAiDouble;
/** A second server whose double always has a valid reply queued, for the access-rule suite. */
let access: Harness;
let accessDouble: OpenAiDouble;

const defaultProviderEnv = (url: string) => ({
  VOICE_EVAL_LLM_BASE_URL: url,
  VOICE_EVAL_LLM_API_KEY: 'sk-server-default-0123456789',
  VOICE_EVAL_LLM_MODEL: 'gpt-4o-mini',
});

const SUGGESTION = {
  name: 'Confirms appointment time',
  description: 'Passes when the agent repeats the booked date and time back to the caller.',
  metric_type: 'boolean',
  custom_data_type: 'boolean',
  custom_config: { min: null, max: null, labels: [] },
  suggested_tags: ['Booking', 'booking', 'accuracy'],
};

beforeAll(async () => {
  double = await startOpenAiDouble();
  accessDouble = await startOpenAiDouble();
  accessDouble.enqueue('/v1/chat/completions', ...Array.from({ length: 40 }, () => chatReply(SUGGESTION)));
  [h, bare, access] = await Promise.all([
    createHarness({ env: defaultProviderEnv(double.url), fetchAllowlist: ['127.0.0.1'] }),
    createHarness(),
    createHarness({ env: defaultProviderEnv(accessDouble.url) }),
  ]);
});
afterAll(() => Promise.all([double.close(), accessDouble.close()]));

const uniqueName = (base = 'Metric') => `${base} ${Math.random().toString(36).slice(2, 8)}`;
const lastChat = () =>
  double.requests.at(-1)?.json as {
    model: string;
    messages: Array<{ content: string }>;
    response_format: { json_schema: { name: string } };
  };
const metricCount = async (harness: Harness) => Number((await harness.db('metrics').count({ n: '*' }))[0]!.n);

describeAccessRules(
  () => access,
  [
    {
      route: 'POST /api/v1/metrics/generate',
      minRole: 'MEMBER',
      request: async () => ({
        path: '/api/v1/metrics/generate',
        body: { mode: 'description', input: 'politeness' },
      }),
    },
  ],
);

describe('POST /metrics/generate', () => {
  it('suggests a definition from a description through the server default provider and persists nothing', async () => {
    const existing = uniqueName('Existing');
    await h.request('POST', '/api/v1/metrics', { headers: await h.as('MEMBER'), body: { name: existing } });
    const before = await metricCount(h);
    double.enqueue('/v1/chat/completions', chatReply(SUGGESTION));
    const reply = await h.request('POST', '/api/v1/metrics/generate', {
      headers: await h.as('MEMBER'),
      body: { mode: 'description', input: 'Check that the agent confirms the appointment time' },
    });
    expect(reply.status, JSON.stringify(reply.body)).toBe(200);
    expect(MetricSuggestionSchema.parse(reply.body)).toEqual({
      ...SUGGESTION,
      custom_config: {},
      supported_surfaces: ['voice'],
      enabled_surfaces: ['voice'],
      suggested_tags: ['booking', 'accuracy'],
      provider: 'default',
      model: 'double-model',
    });
    const sent = lastChat();
    expect(sent.model).toBe('gpt-4o-mini');
    expect(sent.response_format.json_schema.name).toBe('metric_suggestion');
    expect(sent.messages.at(-1)!.content).toContain('confirms the appointment time');
    expect(sent.messages.at(-1)!.content).toContain(existing);
    expect(await metricCount(h)).toBe(before);
    // the call's tokens are recorded against the organization
    const usage = await h
      .db('provider_usage')
      .where({ organization_id: h.organizationId, purpose: 'metric.generate' });
    expect(usage.length).toBeGreaterThan(0);
    expect(usage.at(-1)).toMatchObject({ kind: 'chat', prompt_id: 'metric_generate' });
  });

  it('suggests from a transcript excerpt, honouring a requested metric_type and model', async () => {
    double.enqueue('/v1/chat/completions', chatReply(SUGGESTION));
    const reply = await h.request('POST', '/api/v1/metrics/generate', {
      headers: await h.as('MEMBER'),
      body: {
        mode: 'transcript',
        input: 'agent: Your visit is Tuesday at 3pm.',
        metric_type: 'rating',
        model: 'gpt-4o',
      },
    });
    expect(reply.body).toMatchObject({
      metric_type: 'rating',
      custom_data_type: 'integer',
      custom_config: { min: 1, max: 5 },
    });
    const sent = lastChat();
    expect(sent.model).toBe('gpt-4o');
    expect(sent.messages.at(-1)!.content).toContain('Tuesday at 3pm');
    expect(sent.messages.at(-1)!.content).toContain('type rating');
  });

  it('needs an input (422) and a valid mode (422)', async () => {
    const headers = await h.as('MEMBER');
    expectProblem(
      await h.request('POST', '/api/v1/metrics/generate', { headers, body: { mode: 'description' } }),
      422,
      'rule_violation',
    );
    expectProblem(
      await h.request('POST', '/api/v1/metrics/generate', { headers, body: { mode: 'vibes', input: 'x' } }),
      422,
      'validation_failed',
    );
  });

  it('answers 502 provider_error without internals when the model reply is invalid or the provider fails', async () => {
    const headers = await h.as('MEMBER');
    const body = { mode: 'description', input: 'empathy' };
    double.enqueue('/v1/chat/completions', chatReply({ name: 'only a name' }));
    const invalid = await h.request('POST', '/api/v1/metrics/generate', { headers, body });
    expectProblem(invalid, 502, 'provider_error');
    expect(invalid.body.detail).toContain('invalid_provider_response');
    double.enqueue('/v1/chat/completions', errorReply(400, 'model gpt-4o-mini is overloaded'));
    const failed = await h.request('POST', '/api/v1/metrics/generate', { headers, body });
    expectProblem(failed, 502, 'provider_error');
    expect(failed.body.detail).toContain('provider_error');
    expect(failed.body.detail).not.toContain('overloaded');
  });

  it('is 422 ai_provider_not_configured without an organization provider or a server default', async () => {
    const reply = await bare.request('POST', '/api/v1/metrics/generate', {
      headers: await bare.as('MEMBER'),
      body: { mode: 'description', input: 'politeness' },
    });
    expectProblem(reply, 422, 'ai_provider_not_configured');
  });

  it("prefers the organization's active AI provider, and uses the one named by ai_provider_id", async () => {
    const orgDouble = await startOpenAiDouble();
    try {
      const tenant = await h.createTenant();
      const insert = async (name: string, isDefault: boolean) =>
        (
          await h
            .db('ai_providers')
            .insert({
              organization_id: tenant.organizationId,
              provider: 'openai_compatible',
              name,
              endpoint_url: orgDouble.url,
              enabled_models: JSON.stringify([`${name}-model`]),
              is_default: isDefault,
              created_by: 'test',
            })
            .returning('id')
        )[0].id as string;
      await insert('main', true);
      const other = await insert('other', false);
      orgDouble.enqueue('/v1/chat/completions', chatReply(SUGGESTION), chatReply(SUGGESTION));
      const headers = await tenant.as('MEMBER');
      const served = double.requests.length;
      const chosen = await h.request('POST', '/api/v1/metrics/generate', {
        headers,
        body: { mode: 'description', input: 'tone' },
      });
      expect(chosen.body.provider).toBe('openai_compatible');
      expect((orgDouble.requests.at(-1)!.json as { model: string }).model).toBe('main-model');
      const named = await h.request('POST', '/api/v1/metrics/generate', {
        headers,
        body: { mode: 'description', input: 'tone', ai_provider_id: other },
      });
      expect(named.status).toBe(200);
      expect((orgDouble.requests.at(-1)!.json as { model: string }).model).toBe('other-model');
      expect(double.requests.length).toBe(served);
      const unknown = await h.request('POST', '/api/v1/metrics/generate', {
        headers: await h.as('MEMBER'),
        body: { mode: 'description', input: 'tone', ai_provider_id: other },
      });
      expectProblem(unknown, 422, 'rule_violation');
    } finally {
      await orgDouble.close();
    }
  });
});
