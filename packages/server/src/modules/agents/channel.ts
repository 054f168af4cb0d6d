import type { Deps } from '../../deps.js';
import { createAddressPolicy } from '../../net/address-policy.js';
import { openAiChatChannel } from './channel-openai-chat.js';
import type { AgentChannel } from './channel-types.js';
import { isVoiceConnection } from './channel-voice.js';
import { webhookChannel } from './channel-webhook.js';
import { openConnection } from './connection.js';
import type { AgentRow } from './repo.js';

export { CALL_CONNECTED_MESSAGE, END_CALL_TOOL } from './channel-openai-chat.js';
export type {
  AgentChannel,
  AgentReply,
  AgentReplyOptions,
  AgentTurnMessage,
  AgentTurnRequest,
} from './channel-types.js';
export type { StoredVoiceConnection, VoiceAgent, VoiceConnection } from './channel-voice.js';
export { isVoiceConnection, openVoiceConnection, refusedVoiceAddress } from './channel-voice.js';
export { webhookPayloadOf } from './channel-webhook.js';

/**
 * The text channel to an agent under test (`openai_chat` or `webhook`), by its connection's kind;
 * null when the agent has no text connection: none, or a voice one (`twilio_media_stream`, which
 * the text engine cannot drive: check `isVoiceConnection` first and use `openVoiceConnection`).
 * Secrets are decrypted here (a `SecretBoxError` is thrown when no configured key opens them: a
 * server misconfiguration, not an agent failure). Every request goes through the SSRF-safe fetch
 * under the server's `fetchAllowlist` as configured now.
 */
export const openAgentChannel = (
  deps: Pick<Deps, 'secrets' | 'config'>,
  agent: Pick<AgentRow, 'id' | 'organization_id' | 'connection'>,
): AgentChannel | null => {
  if (!agent.connection || isVoiceConnection(agent)) return null;
  const owner = { organizationId: agent.organization_id, agentId: agent.id };
  const connection = openConnection(deps, owner, agent.connection);
  const policy = createAddressPolicy(deps.config.fetchAllowlist);
  if (connection.kind === 'openai_chat') return openAiChatChannel(policy, connection);
  return connection.kind === 'webhook' ? webhookChannel(policy, connection) : null;
};
