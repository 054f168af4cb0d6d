import type { ZodType, ZodTypeDef } from 'zod';
import type { JsonSchema } from './json-schema.js';
import { isStrictCompatible } from './json-schema.js';
import { type Usage, ZERO_USAGE } from './provider-result.js';
import type { ChatRequest } from './types.js';

/**
 * The OpenAI chat-completions wire format: request bodies with structured output and
 * `input_audio` parts, and replies parsed into validated data and usage.
 */

/** How structured output is requested. */
export type ResponseFormatMode = 'json_schema' | 'json_object';

function userContent(request: ChatRequest<unknown>): unknown {
  if (!request.audio) return request.user;
  return [
    { type: 'text', text: request.user },
    {
      type: 'input_audio',
      input_audio: { data: Buffer.from(request.audio.data).toString('base64'), format: request.audio.format },
    },
  ];
}

function systemContent(request: ChatRequest<unknown>, mode: ResponseFormatMode, schema: JsonSchema): string {
  if (mode === 'json_schema') return request.system;
  // json_object only promises some JSON (and OpenAI insists the prompt says "JSON"): spell the schema out.
  const instruction = 'Respond with a single JSON object that conforms to this JSON Schema:';
  return `${request.system}\n\n${instruction}\n${JSON.stringify(schema)}`;
}

/** The body of `POST /chat/completions` for a structured-output request. */
export function buildChatBody(
  request: ChatRequest<unknown>,
  model: string,
  mode: ResponseFormatMode,
  schema: JsonSchema,
): Record<string, unknown> {
  const responseFormat =
    mode === 'json_schema'
      ? {
          type: 'json_schema',
          json_schema: { name: request.schemaName, schema, strict: isStrictCompatible(schema) },
        }
      : { type: 'json_object' };
  const body: Record<string, unknown> = {
    model,
    messages: [
      { role: 'system', content: systemContent(request, mode, schema) },
      { role: 'user', content: userContent(request) },
    ],
    response_format: responseFormat,
  };
  if (request.temperature !== undefined) body.temperature = request.temperature;
  if (request.maxTokens !== undefined) body.max_tokens = request.maxTokens;
  if (request.seed !== undefined) body.seed = request.seed;
  return body;
}

/**
 * Whether an error reply means "this server does not do json_schema structured output"
 * (vLLM, Ollama and some gateways answer 400/422 naming `response_format` or `json_schema`).
 */
export function isResponseFormatRejection(status: number | undefined, text: string | null): boolean {
  if (status === undefined || ![400, 415, 422, 501].includes(status) || !text) return false;
  return /response_format|json_schema|structured[ _-]?output/i.test(text);
}

const num = (value: unknown): number => (typeof value === 'number' && Number.isFinite(value) ? value : 0);

/** Token usage of an OpenAI-style reply (`usage.prompt_tokens`, or `input_tokens` for transcriptions). */
export function usageOf(body: unknown): Usage {
  const usage = (body as { usage?: Record<string, unknown> } | null)?.usage;
  if (!usage || typeof usage !== 'object') return { ...ZERO_USAGE };
  const prompt = num(usage.prompt_tokens ?? usage.input_tokens);
  const completion = num(usage.completion_tokens ?? usage.output_tokens);
  const result: Usage = {
    prompt_tokens: prompt,
    completion_tokens: completion,
    total_tokens: num(usage.total_tokens) || prompt + completion,
  };
  if (usage.type === 'duration' && typeof usage.seconds === 'number') result.audio_seconds = usage.seconds;
  return result;
}

/** The reply's data, or why it is unusable. */
export type ParsedChatReply<T> = { ok: true; data: T; model: string | null } | { ok: false; message: string };

interface ChatReplyShape {
  model?: unknown;
  choices?: Array<{ finish_reason?: unknown; message?: { content?: unknown; refusal?: unknown } }>;
}

function contentText(content: unknown): string | null {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return null;
  const texts = content
    .map((part) => (part as { text?: unknown })?.text)
    .filter((t) => typeof t === 'string');
  return texts.length > 0 ? texts.join('') : null;
}

/** Strips a Markdown code fence some models wrap JSON in. */
function unfence(text: string): string {
  const match = /^\s*```(?:json)?\s*([\s\S]*?)\s*```\s*$/i.exec(text);
  return match?.[1] ?? text;
}

/** Extracts the first choice's JSON and validates it with `schema`. */
export function parseChatReply<T>(
  body: unknown,
  schema: ZodType<T, ZodTypeDef, unknown>,
): ParsedChatReply<T> {
  const reply = body as ChatReplyShape | null;
  const choice = Array.isArray(reply?.choices) ? reply.choices[0] : undefined;
  if (!choice?.message) return { ok: false, message: 'reply has no choices[0].message' };
  if (typeof choice.message.refusal === 'string' && choice.message.refusal) {
    return { ok: false, message: `the model refused: ${choice.message.refusal.slice(0, 300)}` };
  }
  const text = contentText(choice.message.content);
  if (text === null || !text.trim()) return { ok: false, message: 'reply has no text content' };
  if (choice.finish_reason === 'length')
    return { ok: false, message: 'reply was cut off at the token limit' };
  let json: unknown;
  try {
    json = JSON.parse(unfence(text));
  } catch {
    return { ok: false, message: `reply is not valid JSON: ${text.slice(0, 200)}` };
  }
  const parsed = schema.safeParse(json);
  if (!parsed.success) {
    const issues = parsed.error.issues
      .slice(0, 5)
      .map((i) => `${i.path.join('.') || '(root)'}: ${i.message}`);
    return { ok: false, message: `reply does not match the schema: ${issues.join('; ')}` };
  }
  return { ok: true, data: parsed.data, model: typeof reply?.model === 'string' ? reply.model : null };
}
