import type { AgentConnection, AgentConnectionWrite } from '@voice-eval/contract';
import type { MockReply } from './respond.js';

/**
 * An agent connection as the server answers it: secrets dropped, only whether they are set.
 * Against the `previous` connection of the same kind, an omitted `api_key`, `extra_headers`,
 * `system_prompt` or webhook `secret` keeps the stored one and null clears it; a webhook
 * connection with no secret to keep is a 422, as on the server.
 */
export const readConnection = (
  write: AgentConnectionWrite,
  previous: AgentConnection | null,
): AgentConnection | MockReply => {
  if (write.kind === 'webhook') {
    const kept = previous?.kind === 'webhook' && previous.has_secret;
    if (write.secret === undefined && !kept) {
      const detail = 'A webhook connection needs a signing secret (whsec_…) the first time it is set';
      const errors = [{ path: 'body.connection.secret', message: detail }];
      return { status: 422, body: { code: 'rule_violation', detail, errors } };
    }
    return { kind: 'webhook', url: write.url, has_secret: true };
  }
  if (write.kind === 'twilio_media_stream') {
    const was = previous?.kind === 'twilio_media_stream' ? previous : undefined;
    return {
      kind: 'twilio_media_stream',
      url: write.url,
      custom_parameters: write.custom_parameters ?? was?.custom_parameters ?? {},
      has_auth_header:
        write.auth_header === undefined ? (was?.has_auth_header ?? false) : write.auth_header !== null,
    };
  }
  const before = previous?.kind === 'openai_chat' ? previous : undefined;
  return {
    kind: 'openai_chat',
    base_url: write.base_url,
    model: write.model,
    has_api_key: write.api_key === undefined ? (before?.has_api_key ?? false) : write.api_key !== null,
    system_prompt:
      write.system_prompt === undefined ? (before?.system_prompt ?? null) : write.system_prompt || null,
    extra_header_names: write.extra_headers
      ? Object.keys(write.extra_headers)
      : (before?.extra_header_names ?? []),
  };
};

/** Narrows `readConnection`'s answer: a connection, or the 422 to send. */
export const isReply = (value: AgentConnection | MockReply): value is MockReply => 'status' in value;
