/**
 * The `/v1/chat/completions` checks of the OpenAI-compatible double: roles, content parts (audio
 * only for audio models), and `response_format` as OpenAI validates it.
 */

/** Chat models that accept `input_audio` parts by default. */
export const DEFAULT_AUDIO_MODELS = ['gpt-4o-audio-preview', 'gpt-4o-mini-audio-preview'];
const BASE64 = /^[A-Za-z0-9+/]+={0,2}$/;

type Check = string | null;

function checkContentPart(part: unknown, model: string, audioModels: readonly string[]): Check {
  const p = part as { type?: unknown; text?: unknown; input_audio?: { data?: unknown; format?: unknown } };
  if (p?.type === 'text') return typeof p.text === 'string' ? null : 'text part without text';
  if (p?.type !== 'input_audio') return `unsupported content part type ${String(p?.type)}`;
  const { data, format } = p.input_audio ?? {};
  if (typeof data !== 'string' || !BASE64.test(data)) return 'input_audio.data must be base64';
  if (typeof format !== 'string') return 'input_audio.format is required';
  return audioModels.includes(model) ? null : `This model (${model}) does not support audio input.`;
}

function checkResponseFormat(body: Record<string, unknown>, rejectJsonSchema: boolean): Check {
  const format = body.response_format as {
    type?: unknown;
    json_schema?: { name?: unknown; schema?: unknown };
  };
  if (format === undefined) return null;
  if (format.type === 'json_object') {
    return /json/i.test(JSON.stringify(body.messages))
      ? null
      : "messages must contain the word 'json' to use json_object";
  }
  if (format.type !== 'json_schema') return `response_format type ${String(format.type)} is invalid`;
  if (rejectJsonSchema) return 'response_format json_schema is not supported by this server';
  const name = format.json_schema?.name;
  if (typeof name !== 'string' || !/^[A-Za-z0-9_-]{1,64}$/.test(name)) return 'json_schema.name is invalid';
  return typeof format.json_schema?.schema === 'object' ? null : 'json_schema.schema must be an object';
}

/** What a chat completion request must satisfy: null when it is valid, else the server's message. */
export function checkChat(
  body: unknown,
  options: { audioModels?: readonly string[]; rejectJsonSchema?: boolean },
): Check {
  const b = body as Record<string, unknown> | null;
  if (typeof b?.model !== 'string' || !b.model) return 'model is required';
  if (!Array.isArray(b.messages) || b.messages.length === 0) return 'messages must be a non-empty array';
  for (const message of b.messages as Array<{ role?: unknown; content?: unknown }>) {
    if (!['system', 'user', 'assistant', 'developer'].includes(String(message?.role))) return 'invalid role';
    if (typeof message.content === 'string') continue;
    if (!Array.isArray(message.content)) return 'content must be a string or an array of parts';
    for (const part of message.content) {
      const problem = checkContentPart(part, b.model, options.audioModels ?? DEFAULT_AUDIO_MODELS);
      if (problem) return problem;
    }
  }
  return checkResponseFormat(b, options.rejectJsonSchema ?? false);
}
