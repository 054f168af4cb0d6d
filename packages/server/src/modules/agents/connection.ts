import type { AgentConnection, AgentConnectionWrite } from '@voice-eval/contract';
import type { Deps } from '../../deps.js';
import { ApiError } from '../../errors.js';

/**
 * An agent connection as the `agents.connection` jsonb column holds it: kind, URLs, model, system
 * prompt and custom parameters in clear; every secret (API key, webhook secret, extra header
 * values, the media stream's auth header) a SecretBox ciphertext bound to the organization, the
 * agent and the field.
 */
export type StoredConnection =
  | {
      kind: 'openai_chat';
      base_url: string;
      model: string;
      system_prompt: string | null;
      api_key_sealed: string | null;
      extra_headers: Array<{ name: string; value_sealed: string }>;
    }
  | { kind: 'webhook'; url: string; secret_sealed: string }
  | {
      kind: 'twilio_media_stream';
      url: string;
      custom_parameters: Record<string, string>;
      auth_header_sealed: string | null;
    };

/** A connection with its secrets decrypted, for the channel only. Never log or answer it. */
export type OpenedConnection =
  | {
      kind: 'openai_chat';
      base_url: string;
      model: string;
      system_prompt: string | null;
      api_key: string | null;
      extra_headers: Record<string, string>;
    }
  | { kind: 'webhook'; url: string; secret: string }
  | {
      kind: 'twilio_media_stream';
      url: string;
      custom_parameters: Record<string, string>;
      auth_header: string | null;
    };

/** Whose secrets these are: the additional authenticated data binds them to the agent. */
export type ConnectionOwner = { organizationId: string; agentId: string };

type SecretField = 'api_key' | 'webhook_secret' | 'auth_header' | `extra_header:${string}`;

const contextOf = (owner: ConnectionOwner, field: SecretField) =>
  `agents.connection.${field}:${owner.organizationId}:${owner.agentId}`;

const requiredSecret = (message: string) =>
  new ApiError('rule_violation', message, { errors: [{ path: 'body.connection.secret', message }] });

/** The URL fields of a written connection with their request paths and schemes, for the address check. */
export const connectionUrls = (
  write: AgentConnectionWrite,
): Array<{ path: string; url: string; scheme: 'http' | 'ws' }> => {
  if (write.kind === 'openai_chat')
    return [{ path: 'body.connection.base_url', url: write.base_url, scheme: 'http' }];
  return [{ path: 'body.connection.url', url: write.url, scheme: write.kind === 'webhook' ? 'http' : 'ws' }];
};

/**
 * The stored form of a written connection, secrets sealed. Against the `current` connection of
 * the same kind: an omitted `api_key`, `extra_headers`, `system_prompt`, webhook `secret`,
 * `auth_header` or `custom_parameters` keeps the stored one, null clears it. A webhook connection
 * without a secret to keep is a 422.
 */
export const sealConnection = (
  deps: Pick<Deps, 'secrets'>,
  owner: ConnectionOwner,
  write: AgentConnectionWrite,
  current: StoredConnection | null,
): StoredConnection => {
  const seal = (value: string, field: SecretField) => deps.secrets.seal(value, contextOf(owner, field));
  if (write.kind === 'webhook') {
    const kept = current?.kind === 'webhook' ? current.secret_sealed : null;
    if (write.secret === undefined && !kept) {
      throw requiredSecret('A webhook connection needs a signing secret (whsec_…) the first time it is set');
    }
    const secret_sealed = write.secret === undefined ? kept! : seal(write.secret, 'webhook_secret');
    return { kind: 'webhook', url: write.url, secret_sealed };
  }
  if (write.kind === 'twilio_media_stream') {
    const kept = current?.kind === 'twilio_media_stream' ? current : null;
    return {
      kind: 'twilio_media_stream',
      url: write.url,
      custom_parameters: write.custom_parameters ?? kept?.custom_parameters ?? {},
      auth_header_sealed:
        write.auth_header === undefined
          ? (kept?.auth_header_sealed ?? null)
          : write.auth_header && seal(write.auth_header, 'auth_header'),
    };
  }
  const same = current?.kind === 'openai_chat' ? current : null;
  const api_key_sealed =
    write.api_key === undefined
      ? (same?.api_key_sealed ?? null)
      : write.api_key && seal(write.api_key, 'api_key');
  const extra_headers =
    write.extra_headers === undefined
      ? (same?.extra_headers ?? [])
      : Object.entries(write.extra_headers).map(([name, value]) => ({
          name,
          value_sealed: seal(value, `extra_header:${name.toLowerCase()}`),
        }));
  const system_prompt =
    write.system_prompt === undefined ? (same?.system_prompt ?? null) : write.system_prompt || null;
  return {
    kind: 'openai_chat',
    base_url: write.base_url,
    model: write.model,
    system_prompt,
    api_key_sealed,
    extra_headers,
  };
};

/** The answer-safe form: secrets reduced to flags and header names. */
export const toAgentConnection = (stored: StoredConnection | null): AgentConnection | null => {
  if (!stored) return null;
  if (stored.kind === 'webhook') return { kind: 'webhook', url: stored.url, has_secret: true };
  if (stored.kind === 'twilio_media_stream') {
    return {
      kind: 'twilio_media_stream',
      url: stored.url,
      custom_parameters: stored.custom_parameters,
      has_auth_header: stored.auth_header_sealed !== null,
    };
  }
  return {
    kind: 'openai_chat',
    base_url: stored.base_url,
    model: stored.model,
    has_api_key: stored.api_key_sealed !== null,
    system_prompt: stored.system_prompt,
    extra_header_names: stored.extra_headers.map((header) => header.name),
  };
};

/** Decrypts a stored connection; throws `SecretBoxError` when no configured key opens it. */
export const openConnection = (
  deps: Pick<Deps, 'secrets'>,
  owner: ConnectionOwner,
  stored: StoredConnection,
): OpenedConnection => {
  const open = (sealed: string, field: SecretField) => deps.secrets.open(sealed, contextOf(owner, field));
  if (stored.kind === 'webhook') {
    return { kind: 'webhook', url: stored.url, secret: open(stored.secret_sealed, 'webhook_secret') };
  }
  if (stored.kind === 'twilio_media_stream') {
    return {
      kind: 'twilio_media_stream',
      url: stored.url,
      custom_parameters: stored.custom_parameters,
      auth_header: stored.auth_header_sealed && open(stored.auth_header_sealed, 'auth_header'),
    };
  }
  const extra_headers: Record<string, string> = {};
  for (const { name, value_sealed } of stored.extra_headers) {
    extra_headers[name] = open(value_sealed, `extra_header:${name.toLowerCase()}`);
  }
  return {
    kind: 'openai_chat',
    base_url: stored.base_url,
    model: stored.model,
    system_prompt: stored.system_prompt,
    api_key: stored.api_key_sealed && open(stored.api_key_sealed, 'api_key'),
    extra_headers,
  };
};
