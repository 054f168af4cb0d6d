import { z } from 'zod';
import type { AddressPolicy } from '../../net/address-policy.js';
import { failure, postToAgent } from './channel-post.js';
import type { AgentChannel, AgentTurnRequest } from './channel-types.js';
import type { OpenedConnection } from './connection.js';

type OpenAiChatConnection = Extract<OpenedConnection, { kind: 'openai_chat' }>;

/**
 * Sent as the only message of the greeting request when the agent has no system prompt: chat
 * servers refuse an empty `messages`, and a user turn saying the line opened is what a voice
 * stack's LLM sees when a call connects. With a system prompt, the greeting request carries only it.
 */
export const CALL_CONNECTED_MESSAGE = '(call connected)';

/**
 * The name of the tool call by which an agent hangs up. The platform sends no tools; an agent
 * whose own LLM has a hang-up function of this name (the usual one in Vapi, Pipecat and LiveKit
 * agents) ends the call by answering with it; the message content, if any, is its last words.
 */
export const END_CALL_TOOL = 'end_call';

const ChatCompletionSchema = z.object({
  choices: z
    .array(
      z.object({
        message: z.object({
          content: z.string().nullish(),
          tool_calls: z.array(z.object({ function: z.object({ name: z.string() }).nullish() })).nullish(),
        }),
      }),
    )
    .min(1),
});

const messagesOf = (connection: OpenAiChatConnection, request: AgentTurnRequest) => {
  const system = connection.system_prompt ? [{ role: 'system', content: connection.system_prompt }] : [];
  const turns = request.messages.map((m) => ({
    role: m.role === 'agent' ? 'assistant' : 'user',
    content: m.text,
  }));
  if (turns.length === 0 && system.length === 0) return [{ role: 'user', content: CALL_CONNECTED_MESSAGE }];
  return [...system, ...turns];
};

/** Reaches an agent behind an OpenAI-compatible `POST {base_url}/chat/completions`. */
export const openAiChatChannel = (policy: AddressPolicy, connection: OpenAiChatConnection): AgentChannel => {
  const headers: Record<string, string> = { ...connection.extra_headers };
  // the key wins over an extra Authorization header stored before it
  if (connection.api_key) headers.authorization = `Bearer ${connection.api_key}`;
  const post = {
    url: `${connection.base_url.replace(/\/+$/, '')}/chat/completions`,
    headers,
    credentialHeaders: Object.keys(headers),
  };
  return {
    reply: async (request, options) => {
      const body = JSON.stringify({
        model: connection.model,
        messages: messagesOf(connection, request),
        seed: request.seed,
        user: request.conversationId,
      });
      const answer = await postToAgent(policy, { ...post, body }, options);
      if (!answer.ok) return answer;
      const parsed = ChatCompletionSchema.safeParse(answer.json);
      if (!parsed.success) {
        return failure(
          'agent_invalid_response',
          'The agent did not answer a chat completion',
          answer.latencyMs,
        );
      }
      const message = parsed.data.choices[0]!.message;
      const endCall = (message.tool_calls ?? []).some((call) => call.function?.name === END_CALL_TOOL);
      const text = (message.content ?? '').trim();
      if (!text && !endCall) {
        return failure(
          'agent_invalid_response',
          'The agent answered a completion without text',
          answer.latencyMs,
        );
      }
      return { ok: true, text, endCall, latencyMs: answer.latencyMs };
    },
  };
};
