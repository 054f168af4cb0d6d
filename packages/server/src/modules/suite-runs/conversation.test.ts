import { describe, expect, it } from 'vitest';
import type { AgentChannel, AgentReply, AgentTurnRequest } from '../agents/channel.js';
import {
  type CallerModel,
  type ConversationSetup,
  latencySummary,
  runConversation,
  speakingMs,
} from './conversation.js';

const setup: ConversationSetup = {
  conversationId: 'c-1',
  runId: 'r-1',
  seed: 42,
  scenario: { id: 's', name: 'Book' },
  metadata: {},
  maxTurns: 3,
  responseDelayMs: 500,
  turnTimeoutMs: 1000,
};

/** An agent that answers from a script, recording what it was sent. */
const scriptedAgent = (replies: AgentReply[]) => {
  const seen: AgentTurnRequest[] = [];
  const channel: AgentChannel = {
    reply: async (request) => {
      seen.push(structuredClone(request));
      return replies.shift() ?? { ok: true, text: 'Anything else?', endCall: false, latencyMs: 100 };
    },
  };
  return { channel, seen };
};

const caller =
  (replies: Array<{ text: string; endCall?: boolean } | 'fail'>): CallerModel =>
  async () => {
    const next = replies.shift() ?? { text: 'Okay.' };
    return next === 'fail'
      ? { ok: false, message: 'rate_limited: slow down' }
      : { ok: true, endCall: false, ...next };
  };

const signal = new AbortController().signal;

describe('runConversation', () => {
  it('lets the agent speak first and alternates until the caller hangs up', async () => {
    const agent = scriptedAgent([
      { ok: true, text: 'Riverside Clinic, how can I help?', endCall: false, latencyMs: 300 },
      { ok: true, text: 'Booked for Monday.', endCall: false, latencyMs: 200 },
    ]);
    const outcome = await runConversation(
      agent.channel,
      caller([{ text: 'I need an appointment.' }, { text: 'Thanks, bye!', endCall: true }]),
      setup,
      signal,
    );
    expect(outcome).toMatchObject({ ok: true, endReason: 'caller_ended', agentLatenciesMs: [300, 200] });
    expect(outcome.turns.map((t) => [t.speaker, t.text])).toEqual([
      ['agent', 'Riverside Clinic, how can I help?'],
      ['user', 'I need an appointment.'],
      ['agent', 'Booked for Monday.'],
      ['user', 'Thanks, bye!'],
    ]);
    expect(agent.seen.map((r) => [r.turn, r.messages.length])).toEqual([
      [0, 0],
      [2, 2],
    ]);
    expect(agent.seen[1]!.messages[1]).toEqual({ role: 'caller', text: 'I need an appointment.' });
  });

  it('places turns on a timeline of measured latency, response delay and speaking time', async () => {
    const agent = scriptedAgent([{ ok: true, text: 'Hello there', endCall: false, latencyMs: 300 }]);
    const outcome = await runConversation(
      agent.channel,
      caller([{ text: 'Bye', endCall: true }]),
      setup,
      signal,
    );
    const greetingEnd = 300 + speakingMs('Hello there');
    expect(outcome.turns).toMatchObject([
      { start_ms: 300, end_ms: greetingEnd },
      { start_ms: greetingEnd + 500, end_ms: greetingEnd + 500 + speakingMs('Bye') },
    ]);
  });

  it('ends with max_turns_reached after the agent answers the last caller turn', async () => {
    const outcome = await runConversation(scriptedAgent([]).channel, caller([]), setup, signal);
    expect(outcome).toMatchObject({ ok: true, endReason: 'max_turns_reached' });
    expect(outcome.turns.filter((t) => t.speaker === 'user')).toHaveLength(3);
    expect(outcome.turns.at(-1)!.speaker).toBe('agent');
  });

  it('ends when the agent hangs up', async () => {
    const agent = scriptedAgent([
      { ok: true, text: 'Hi', endCall: false, latencyMs: 10 },
      { ok: true, text: 'Goodbye', endCall: true, latencyMs: 10 },
    ]);
    const outcome = await runConversation(agent.channel, caller([]), setup, signal);
    expect(outcome).toMatchObject({ ok: true, endReason: 'agent_ended' });
    expect(outcome.turns).toHaveLength(3);
  });

  it('returns the agent error of any turn, with the turns spoken so far', async () => {
    const agent = scriptedAgent([
      { ok: true, text: 'Hi', endCall: false, latencyMs: 10 },
      { ok: false, error: { code: 'agent_timeout', message: 'no answer in 1000 ms' }, latencyMs: 1000 },
    ]);
    const outcome = await runConversation(agent.channel, caller([]), setup, signal);
    expect(outcome).toMatchObject({ ok: false, error: { code: 'agent_timeout' } });
    expect(outcome.turns).toHaveLength(2);
  });

  it('types a persona model failure', async () => {
    const outcome = await runConversation(scriptedAgent([]).channel, caller(['fail']), setup, signal);
    expect(outcome).toMatchObject({
      ok: false,
      error: { code: 'persona_model_error', message: 'rate_limited: slow down' },
    });
  });
});

describe('latencySummary', () => {
  it('gives nearest-rank percentiles', () => {
    expect(latencySummary([])).toBeNull();
    expect(latencySummary([100, 300, 200, 400])).toEqual({ p50_ms: 200, p95_ms: 400, max_ms: 400 });
    expect(latencySummary(Array.from({ length: 100 }, (_, i) => i + 1))).toEqual({
      p50_ms: 50,
      p95_ms: 95,
      max_ms: 100,
    });
  });
});
