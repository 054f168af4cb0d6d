import type { LookupFunction } from 'node:net';
import type { Deps } from '../../deps.js';
import { createAddressPolicy } from '../../net/address-policy.js';
import { guardedLookup, refusedLiteralHost } from '../../net/guarded-lookup.js';
import { openConnection, type StoredConnection } from './connection.js';
import type { AgentRow } from './repo.js';

/** A stored `twilio_media_stream` connection: the voice channel (Twilio's Media Stream wire format). */
export type StoredVoiceConnection = Extract<StoredConnection, { kind: 'twilio_media_stream' }>;

/** An agent whose connection is a voice one. */
export type VoiceAgent<A extends Pick<AgentRow, 'connection'>> = A & { connection: StoredVoiceConnection };

/**
 * Whether the agent is reached over a Twilio Media Stream (the voice engine) rather than the text
 * channel of `openAgentChannel`.
 */
export const isVoiceConnection = <A extends Pick<AgentRow, 'connection'>>(agent: A): agent is VoiceAgent<A> =>
  agent.connection?.kind === 'twilio_media_stream';

/**
 * What the media-stream client needs to reach a voice agent, secrets decrypted. Never log it.
 * `lookup` refuses host names that resolve to addresses the server's allow-list does not allow.
 */
export type VoiceConnection = {
  /** The agent's `ws://` or `wss://` URL. */
  url: string;
  /** Headers of the upgrade: `Authorization` when the connection has an `auth_header`. */
  headers: Record<string, string>;
  /** Sent in the `start` message's `customParameters`. */
  customParameters: Record<string, string>;
  lookup: LookupFunction;
};

/** The URL's host when it is an IP address the allow-list refuses now (no lookup guards those). */
export const refusedVoiceAddress = (
  deps: Pick<Deps, 'config'>,
  connection: Pick<StoredVoiceConnection, 'url'>,
): string | null =>
  refusedLiteralHost(new URL(connection.url), createAddressPolicy(deps.config.fetchAllowlist));

/**
 * The voice agent's connection for the media-stream client, under the server's `fetchAllowlist`
 * as configured now: null when the agent has no voice connection, or when its URL is an IP
 * address the allow-list no longer allows (checked here, since no DNS lookup guards it; a warning
 * is logged). Throws `SecretBoxError` when no configured key opens the auth header.
 */
export const openVoiceConnection = (
  deps: Pick<Deps, 'secrets' | 'config' | 'logger'>,
  agent: Pick<AgentRow, 'id' | 'organization_id' | 'connection'>,
): VoiceConnection | null => {
  if (!isVoiceConnection(agent)) return null;
  const refused = refusedVoiceAddress(deps, agent.connection);
  if (refused) {
    deps.logger.warn({ agentId: agent.id, reason: refused }, 'agent:address_refused');
    return null;
  }
  const owner = { organizationId: agent.organization_id, agentId: agent.id };
  const opened = openConnection(deps, owner, agent.connection);
  if (opened.kind !== 'twilio_media_stream') return null;
  return {
    url: opened.url,
    headers: opened.auth_header ? { Authorization: opened.auth_header } : {},
    customParameters: { ...opened.custom_parameters },
    lookup: guardedLookup(createAddressPolicy(deps.config.fetchAllowlist)),
  };
};
