import type { AgentErrorCode } from '@voice-eval/contract';
import type { AddressPolicy } from '../../net/address-policy.js';
import { type SafeFetchErrorCode, safeFetch } from '../../net/safe-fetch.js';
import type { AgentReply, AgentReplyOptions } from './channel-types.js';

/** The largest answer read from an agent, in bytes: a turn of speech is far below it. */
const MAX_REPLY_BYTES = 1024 * 1024;

/** A failed turn. */
export type AgentFailure = Extract<AgentReply, { ok: false }>;

/** A POST to the agent: the parsed JSON answer, or the channel failure it amounts to. */
export type PostOutcome = { ok: true; json: unknown; latencyMs: number } | AgentFailure;

/** One JSON POST to an agent endpoint. */
export type AgentPost = {
  url: string;
  /** The JSON body, serialised by the caller (a signature covers these exact bytes). */
  body: string;
  headers: Record<string, string>;
  /** Header names holding credentials: not carried across a redirect to another origin. */
  credentialHeaders: readonly string[];
};

const CODE_OF: Record<SafeFetchErrorCode, AgentErrorCode> = {
  invalid_url: 'agent_unreachable',
  address_refused: 'agent_unreachable',
  too_many_redirects: 'agent_unreachable',
  redirect_refused: 'agent_unreachable',
  http_error: 'agent_unreachable',
  network_error: 'agent_unreachable',
  // the caller aborted: it knows from its own signal, and records its own reason
  cancelled: 'agent_unreachable',
  timeout: 'agent_timeout',
  too_large: 'agent_invalid_response',
};

/** A typed channel failure. */
export const failure = (code: AgentErrorCode, message: string, latencyMs: number): AgentFailure => ({
  ok: false,
  error: { code, message },
  latencyMs,
});

/**
 * POSTs JSON to an agent through the SSRF-safe fetch (the address policy is applied again now:
 * DNS answers change after a URL was saved) and parses the JSON answer. Every failure is a value.
 */
export const postToAgent = async (
  policy: AddressPolicy,
  post: AgentPost,
  options: AgentReplyOptions,
): Promise<PostOutcome> => {
  const started = performance.now();
  const result = await safeFetch(post.url, {
    policy,
    method: 'POST',
    body: post.body,
    headers: {
      'user-agent': 'voice-eval-agent-channel',
      accept: 'application/json',
      ...post.headers,
      'content-type': 'application/json',
    },
    redirect: 'follow',
    credentialHeaders: post.credentialHeaders,
    maxBytes: MAX_REPLY_BYTES,
    timeoutMs: options.timeoutMs,
    signal: options.signal,
  });
  const latencyMs = Math.max(0, Math.round(performance.now() - started));
  if (!result.ok) {
    const message =
      result.code === 'http_error' ? `The agent answered HTTP ${result.status ?? 'error'}` : result.message;
    return failure(CODE_OF[result.code], message, latencyMs);
  }
  try {
    return { ok: true, json: JSON.parse(result.bytes.toString('utf8')), latencyMs };
  } catch {
    return failure('agent_invalid_response', 'The agent did not answer JSON', latencyMs);
  }
};
