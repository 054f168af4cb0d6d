import { randomUUID } from 'node:crypto';
import { Webhook } from 'standardwebhooks';
import { z } from 'zod';
import type { AddressPolicy } from '../../net/address-policy.js';
import { failure, postToAgent } from './channel-post.js';
import type { AgentChannel, AgentTurnRequest } from './channel-types.js';
import type { OpenedConnection } from './connection.js';

type WebhookConnection = Extract<OpenedConnection, { kind: 'webhook' }>;

/** What a webhook agent answers. `reply` may be empty only when it hangs up. */
const WebhookReplySchema = z.object({ reply: z.string(), end_call: z.boolean().optional() });

/** The body POSTed to a webhook agent each turn, snake_case like every wire format. */
export const webhookPayloadOf = (request: AgentTurnRequest) => ({
  conversation_id: request.conversationId,
  run_id: request.runId,
  turn: request.turn,
  messages: request.messages.map(({ role, text }) => ({ role, text })),
  scenario: { id: request.scenario.id, name: request.scenario.name },
  metadata: request.metadata,
});

/**
 * Reaches an agent by `POST {url}`, signed with the Standard Webhooks scheme (`webhook-id`,
 * `webhook-timestamp`, `webhook-signature`) under the connection's secret. Each request gets its
 * own `webhook-id`: a turn asked again is a new message, not a redelivery to de-duplicate.
 */
export const webhookChannel = (policy: AddressPolicy, connection: WebhookConnection): AgentChannel => {
  const signer = new Webhook(connection.secret);
  return {
    reply: async (request, options) => {
      const body = JSON.stringify(webhookPayloadOf(request));
      const id = `msg_${randomUUID()}`;
      // the wall clock, not deps.now: receivers check freshness against their own real clocks
      const timestamp = new Date();
      const headers = {
        'webhook-id': id,
        'webhook-timestamp': String(Math.floor(timestamp.getTime() / 1000)),
        'webhook-signature': signer.sign(id, timestamp, body),
      };
      const answer = await postToAgent(
        policy,
        { url: connection.url, body, headers, credentialHeaders: [] },
        options,
      );
      if (!answer.ok) return answer;
      const parsed = WebhookReplySchema.safeParse(answer.json);
      if (!parsed.success) {
        return failure(
          'agent_invalid_response',
          'Expected { reply: string, end_call?: boolean }',
          answer.latencyMs,
        );
      }
      const text = parsed.data.reply.trim();
      const endCall = parsed.data.end_call ?? false;
      if (!text && !endCall)
        return failure('agent_invalid_response', 'The agent replied nothing', answer.latencyMs);
      return { ok: true, text, endCall, latencyMs: answer.latencyMs };
    },
  };
};
