/** Server, contract and SDK agree on LLM-assisted metric authoring: generate and parse-bulk, on the double. */
import { InternalServerError, UnprocessableEntityError } from '@voice-eval/sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  chatReply,
  errorReply,
  type OpenAiDouble,
  startOpenAiDouble,
} from '../../src/testing/openai-compatible.js';
import { expectApiError } from './conformance.js';
import { createSdkHarness, type SdkHarness } from './sdk-harness.js';

let h: SdkHarness;
let bare: SdkHarness;
let double: OpenAiDouble;
beforeAll(async () => {
  double = await startOpenAiDouble();
  [h, bare] = await Promise.all([
    createSdkHarness({
      env: {
        VOICE_EVAL_LLM_BASE_URL: double.url,
        VOICE_EVAL_LLM_API_KEY: 'sk-double',
        VOICE_EVAL_LLM_MODEL: 'gpt-4o-mini',
      },
    }),
    createSdkHarness(),
  ]);
});
afterAll(() => double?.close());

const SUGGESTION = {
  name: 'Confirms appointment time',
  description: 'Passes when the agent repeats the booked date and time back to the caller.',
  metric_type: 'boolean',
  custom_data_type: 'boolean',
  custom_config: { min: null, max: null, labels: [] },
  suggested_tags: ['Booking'],
};

const RUBRIC =
  'Label #1\nName: Greeting\nDefinition: Greets the caller.\nExamples:\n- "Hello"\n\n' +
  'Label #2\nName: Farewell\nDefinition: Says goodbye.\nExamples:\n- "Bye"';

describe('metrics.generate', () => {
  it('answers a suggestion through the server default provider and stores nothing', async () => {
    const client = h.sdk();
    const before = (await client.metrics.list()).total;
    double.enqueue('/v1/chat/completions', chatReply(SUGGESTION));
    const suggestion = await client.metrics.generate({
      mode: 'description',
      input: 'confirms the appointment time',
    });
    expect(suggestion).toMatchObject({
      name: SUGGESTION.name,
      metric_type: 'boolean',
      suggested_tags: ['booking'],
      provider: 'default',
    });
    const sent = double.requests.at(-1)?.json as { model: string; messages: Array<{ content: string }> };
    expect(sent.model).toBe('gpt-4o-mini');
    expect(sent.messages.at(-1)?.content).toContain('confirms the appointment time');
    expect((await client.metrics.list()).total).toBe(before);
  });

  it('a missing input is a 422 problem; a bad model reply or a provider failure a 502 problem', async () => {
    const client = h.sdk();
    await expectApiError(
      client.metrics.generate({ mode: 'description' }),
      UnprocessableEntityError,
      422,
      'rule_violation',
    );
    double.enqueue('/v1/chat/completions', chatReply({ name: 'only a name' }));
    const invalid = await expectApiError(
      client.metrics.generate({ mode: 'description', input: 'empathy' }),
      InternalServerError,
      502,
      'provider_error',
    );
    expect(invalid.detail).toContain('invalid_provider_response');
    double.enqueue('/v1/chat/completions', errorReply(400, 'model gpt-4o-mini is overloaded'));
    const failed = await expectApiError(
      client.metrics.generate({ mode: 'description', input: 'empathy' }),
      InternalServerError,
      502,
    );
    expect(failed.detail).not.toContain('overloaded');
  });

  it('without any provider it is a 422 ai_provider_not_configured problem', async () => {
    await expectApiError(
      bare.sdk().metrics.generate({ mode: 'description', input: 'politeness' }),
      UnprocessableEntityError,
      422,
      'ai_provider_not_configured',
    );
  });
});

describe('metrics.parseBulk', () => {
  it('parses a rubric into unsaved drafts without a provider, under a parent when asked', async () => {
    const parsed = await bare.sdk().metrics.parseBulk({ prompt: RUBRIC, parent_name: 'Call phases' });
    expect(parsed.parent).toMatchObject({ name: 'Call phases', selection_mode: 'multi_label' });
    expect(parsed.metrics.map((m) => [m.name, m.metric_type, m.source_label.examples])).toEqual([
      ['Greeting', 'boolean', ['Hello']],
      ['Farewell', 'boolean', ['Bye']],
    ]);
    expect((await bare.sdk().metrics.list()).total).toBe(0);
  });

  it('enriches descriptions through the double; a rubric without labels is a 422 problem', async () => {
    const enriched = (n: number) => ({
      description: `Judge-ready description ${n}.`,
      pass_criteria: [`counts ${n}`],
      fail_criteria: [`near miss ${n}`],
      examples: ['Hello'],
    });
    double.enqueue('/v1/chat/completions', chatReply(enriched(1)), chatReply(enriched(2)));
    const parsed = await h.sdk().metrics.parseBulk({ prompt: RUBRIC, enrich_descriptions: true });
    expect(parsed.metrics.map((m) => m.description.split('\n')[0]).sort()).toEqual([
      'Judge-ready description 1.',
      'Judge-ready description 2.',
    ]);
    const error = await expectApiError(
      h.sdk().metrics.parseBulk({ prompt: 'Greeting: says hello' }),
      UnprocessableEntityError,
      422,
      'rule_violation',
    );
    expect(error.errors[0]?.path).toBe('body.prompt');
    await expectApiError(
      bare.sdk().metrics.parseBulk({ prompt: RUBRIC, enrich_descriptions: true }),
      UnprocessableEntityError,
      422,
      'ai_provider_not_configured',
    );
  });
});
