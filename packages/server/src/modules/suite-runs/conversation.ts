import type { SuiteRunCallError, TranscriptTurn } from '@voice-eval/contract';
import type { AgentChannel, AgentTurnRequest } from '../agents/channel.js';

/** The caller's next utterance, or why the persona model could not give one. */
export type CallerReply = { ok: true; text: string; endCall: boolean } | { ok: false; message: string };

/** Plays the persona: the conversation so far in, its next utterance out. */
export type CallerModel = (
  turns: ReadonlyArray<{ speaker: 'agent' | 'caller'; text: string }>,
  turnsLeft: number,
  signal: AbortSignal,
) => Promise<CallerReply>;

/** What one simulated conversation needs besides its two parties. */
export type ConversationSetup = Omit<AgentTurnRequest, 'turn' | 'messages'> & {
  /** Caller turns before the call is cut (`max_turns_reached`). */
  maxTurns: number;
  /** The persona's pause before each of its turns, in ms (on the timeline; text calls do not wait). */
  responseDelayMs: number;
  /** Per-turn limit on the agent's answer, in ms. */
  turnTimeoutMs: number;
};

/** A finished conversation, or the typed error that ended it (with the turns spoken until then). */
export type ConversationOutcome =
  | {
      ok: true;
      turns: TranscriptTurn[];
      endReason: 'agent_ended' | 'caller_ended' | 'max_turns_reached';
      agentLatenciesMs: number[];
    }
  | {
      ok: false;
      error: Pick<SuiteRunCallError, 'code' | 'message'>;
      turns: TranscriptTurn[];
      agentLatenciesMs: number[];
    };

/**
 * Speaking time of a turn on a text channel's timeline: 150 words a minute, the pace of
 * conversational English, so timestamps stay plausible for metrics that read them.
 */
export const speakingMs = (text: string): number =>
  Math.round(text.trim().split(/\s+/).filter(Boolean).length * 400);

/**
 * Runs one simulated call over any channel: the agent speaks first, then the persona and the agent
 * alternate until either ends the call or the persona has spoken `maxTurns` times (the agent still
 * answers that last turn). Timestamps follow the audio a call would have: each caller turn starts
 * `responseDelayMs` after the agent's, each agent turn its measured latency after the caller's.
 * Never throws for an expected failure: agent and persona errors come back typed.
 */
export const runConversation = async (
  agent: AgentChannel,
  caller: CallerModel,
  setup: ConversationSetup,
  signal: AbortSignal,
): Promise<ConversationOutcome> => {
  const { maxTurns, responseDelayMs, turnTimeoutMs, ...base } = setup;
  const spoken: Array<{ speaker: 'agent' | 'caller'; text: string }> = [];
  const turns: TranscriptTurn[] = [];
  const latencies: number[] = [];
  let clock = 0;
  const say = (speaker: 'agent' | 'caller', text: string, gapMs: number) => {
    const start = clock + gapMs;
    clock = start + speakingMs(text);
    spoken.push({ speaker, text });
    turns.push({ speaker: speaker === 'agent' ? 'agent' : 'user', text, start_ms: start, end_ms: clock });
  };
  const failed = (error: Pick<SuiteRunCallError, 'code' | 'message'>): ConversationOutcome => ({
    ok: false,
    error,
    turns,
    agentLatenciesMs: latencies,
  });
  const agentTurn = async () => {
    const reply = await agent.reply(
      {
        ...base,
        turn: spoken.length,
        messages: spoken.map((s) => ({ role: s.speaker, text: s.text })),
      },
      { signal, timeoutMs: turnTimeoutMs },
    );
    if (!reply.ok) return reply;
    latencies.push(reply.latencyMs);
    say('agent', reply.text, reply.latencyMs);
    return reply;
  };

  const greeting = await agentTurn();
  if (!greeting.ok) return failed(greeting.error);
  let agentEnded = greeting.endCall;
  for (let callerTurn = 1; ; callerTurn++) {
    if (agentEnded) return { ok: true, turns, endReason: 'agent_ended', agentLatenciesMs: latencies };
    if (signal.aborted) return failed({ code: 'cancelled', message: 'The call was stopped.' });
    const next = await caller(spoken, maxTurns - callerTurn + 1, signal);
    if (!next.ok) return failed({ code: 'persona_model_error', message: next.message });
    say('caller', next.text, responseDelayMs);
    if (next.endCall) return { ok: true, turns, endReason: 'caller_ended', agentLatenciesMs: latencies };
    const answer = await agentTurn();
    if (!answer.ok) return failed(answer.error);
    agentEnded = answer.endCall;
    if (callerTurn >= maxTurns && !agentEnded) {
      return { ok: true, turns, endReason: 'max_turns_reached', agentLatenciesMs: latencies };
    }
  }
};

/** p50, p95 and max of the agent's latencies, in whole ms; null when it never answered. */
export const latencySummary = (latencies: readonly number[]) => {
  if (latencies.length === 0) return null;
  const sorted = [...latencies].sort((a, b) => a - b);
  const at = (q: number) =>
    Math.round(sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)]!);
  return { p50_ms: at(0.5), p95_ms: at(0.95), max_ms: Math.round(sorted[sorted.length - 1]!) };
};
