import type { AgentErrorCode } from '@voice-eval/contract';

/** One turn of the conversation so far, as the channel sends it. */
export type AgentTurnMessage = { role: 'agent' | 'caller'; text: string };

/** What the agent is asked for: its next turn, given the conversation so far. */
export type AgentTurnRequest = {
  /** Stable for the whole conversation; sent as `user` (openai_chat) or `conversation_id` (webhook). */
  conversationId: string;
  runId: string;
  /** Turns in the conversation so far, which is the index the agent's reply takes: 0 for the greeting. */
  turn: number;
  /** The conversation's stored seed; sent as `seed` to openai_chat agents. */
  seed: number;
  /** The conversation so far, oldest first; empty for the greeting (the agent speaks first). */
  messages: ReadonlyArray<AgentTurnMessage>;
  scenario: { id: string; name: string };
  /** Free-form context passed through to webhook agents (persona, repetition, …). */
  metadata: Record<string, unknown>;
};

/** The agent's turn, or a typed failure (expected outcomes are values); latency of the round trip. */
export type AgentReply =
  | { ok: true; text: string; endCall: boolean; latencyMs: number }
  | { ok: false; error: { code: AgentErrorCode; message: string }; latencyMs: number };

/** Options of one agent turn. */
export type AgentReplyOptions = {
  /** Aborts the request; the reply is then a failure the caller tells apart by its own signal. */
  signal?: AbortSignal;
  /** Deadline of the round trip (redirects included), in ms; past it the reply is `agent_timeout`. */
  timeoutMs: number;
};

/**
 * The text channel to an agent under test, independent of who drives the conversation (the
 * suite-run engine, the connection test). `reply` never throws for the agent's failures.
 */
export interface AgentChannel {
  reply(request: AgentTurnRequest, options: AgentReplyOptions): Promise<AgentReply>;
}
