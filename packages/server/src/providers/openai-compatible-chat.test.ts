import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { chatReply, errorReply, type OpenAiDouble, startOpenAiDouble } from '../testing/openai-compatible.js';
import { OpenAiCompatibleProvider } from './openai-compatible-provider.js';
import { diariseV1, renderPrompt } from './prompts/index.js';
import type { UsageEvent } from './types.js';

const KEY = 'sk-test-chat-0123456789';
const Answer = z.object({ verdict: z.boolean(), reason: z.string() });
const request = {
  system: 'You judge. Answer in JSON.',
  user: 'Was it good?',
  schema: Answer,
  schemaName: 'answer',
};

/** The chat-completions body as the double recorded it. */
interface SentChat {
  model: string;
  max_tokens?: number;
  messages: Array<{ role: string; content: string }>;
  response_format: { type: string; json_schema?: { name: string; strict: boolean; schema: unknown } };
}
const sent = (index: number) => double.requests[index]?.json as SentChat;

let double: OpenAiDouble;
const provider = (overrides: Partial<ConstructorParameters<typeof OpenAiCompatibleProvider>[0]> = {}) =>
  new OpenAiCompatibleProvider({
    name: 'openai',
    baseUrl: double.url,
    apiKey: KEY,
    chatModel: 'gpt-4o-mini',
    ...overrides,
  });

beforeEach(async () => {
  double = await startOpenAiDouble({ auth: { header: 'authorization', value: `Bearer ${KEY}` } });
});
afterEach(() => double.close());

describe('OpenAiCompatibleProvider.chat', () => {
  it('requests json_schema output, parses it with the zod schema and reports usage', async () => {
    double.enqueue(
      '/v1/chat/completions',
      chatReply({ verdict: true, reason: 'polite' }, { prompt_tokens: 20, completion_tokens: 5 }),
    );
    const events: UsageEvent[] = [];
    const result = await provider({ onUsage: (event) => void events.push(event) }).chat(request);

    expect(result).toMatchObject({
      ok: true,
      value: { data: { verdict: true, reason: 'polite' }, response_format: 'json_schema' },
      usage: { prompt_tokens: 20, completion_tokens: 5, total_tokens: 25 },
      provider: 'openai',
      model: 'gpt-4o-mini',
    });
    const body = sent(0);
    expect(body.model).toBe('gpt-4o-mini');
    expect(body.response_format).toMatchObject({
      type: 'json_schema',
      json_schema: { name: 'answer', strict: true },
    });
    expect(body.response_format.json_schema?.schema).toMatchObject({
      required: ['verdict', 'reason'],
      additionalProperties: false,
    });
    expect(body.messages).toEqual([
      { role: 'system', content: request.system },
      { role: 'user', content: request.user },
    ]);
    expect(events).toEqual([
      expect.objectContaining({ kind: 'chat', model: 'gpt-4o-mini', attempts: 1, prompt: null }),
    ]);
    expect(events[0]?.usage.total_tokens).toBe(25);
  });

  it('sends rendered prompt templates and tags usage with the prompt id and version', async () => {
    double.enqueue('/v1/chat/completions', chatReply({ turns: [{ speaker: 'agent', text: 'Hello' }] }));
    const events: UsageEvent[] = [];
    const result = await provider().chat(
      { ...renderPrompt(diariseV1, { transcript: 'Hello' }), model: 'gpt-4o' },
      { onUsage: (event) => void events.push(event) },
    );
    expect(result.ok && result.value.data.turns).toEqual([{ speaker: 'agent', text: 'Hello' }]);
    expect(sent(0).messages[1]?.content).toContain('<transcript>\nHello\n</transcript>');
    expect(events[0]?.prompt).toEqual({ id: 'diarise', version: 1 });
  });

  it('returns invalid_provider_response when the model replies with invalid JSON', async () => {
    double.enqueue('/v1/chat/completions', chatReply('{"verdict": tru'));
    const events: UsageEvent[] = [];
    const result = await provider({ onUsage: (event) => void events.push(event) }).chat(request);
    expect(result).toMatchObject({
      ok: false,
      error: { code: 'invalid_provider_response', provider: 'openai', model: 'gpt-4o-mini' },
    });
    expect(events).toHaveLength(1);
  });

  it('returns invalid_provider_response when the JSON does not match the schema', async () => {
    double.enqueue('/v1/chat/completions', chatReply({ verdict: 'yes' }));
    const result = await provider().chat(request);
    expect(result.ok).toBe(false);
    expect(!result.ok && result.error).toMatchObject({ code: 'invalid_provider_response' });
    expect(!result.ok && result.error.message).toMatch(/verdict/);
  });

  it('falls back to json_object when the server rejects json_schema, and still validates', async () => {
    await double.close();
    double = await startOpenAiDouble({ rejectJsonSchema: true });
    double.enqueue(
      '/v1/chat/completions',
      chatReply({ verdict: false, reason: 'rude' }),
      chatReply({ verdict: 'no' }),
    );
    const p = provider();

    const first = await p.chat(request);
    expect(first).toMatchObject({
      ok: true,
      value: { data: { verdict: false, reason: 'rude' }, response_format: 'json_object' },
    });
    expect(double.requests.map((r) => (r.json as SentChat).response_format.type)).toEqual([
      'json_schema',
      'json_object',
    ]);
    expect(sent(1).messages[0]?.content).toContain('"verdict"');

    const second = await p.chat(request);
    expect(second).toMatchObject({ ok: false, error: { code: 'invalid_provider_response' } });
    expect(double.requests.map((r) => (r.json as SentChat).response_format.type)).toEqual([
      'json_schema',
      'json_object',
      'json_object',
    ]);
  });

  it('does not fall back on unrelated client errors', async () => {
    double.enqueue('/v1/chat/completions', errorReply(400, 'max_tokens is too large'));
    const result = await provider().chat({ ...request, maxTokens: 10 });
    expect(result).toMatchObject({ ok: false, error: { code: 'provider_error', status: 400 } });
    expect(double.requests).toHaveLength(1);
    expect(sent(0).max_tokens).toBe(10);
  });

  it('returns ai_provider_not_configured when no model is known', async () => {
    const result = await provider({ chatModel: null }).chat(request);
    expect(result).toMatchObject({ ok: false, error: { code: 'ai_provider_not_configured' } });
    expect(double.requests).toHaveLength(0);
  });
});
