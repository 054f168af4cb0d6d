import { randomInt, randomUUID } from 'node:crypto';
import type { AgentTestResult } from '@voice-eval/contract';
import type { RequestContext } from '../../context.js';
import type { Deps } from '../../deps.js';
import { ApiError, notFound } from '../../errors.js';
import { isVoiceConnection, openAgentChannel } from './channel.js';
import * as repo from './repo.js';
import { testVoiceGreeting } from './test-voice-connection.js';

/** Stands in for the scenario of a connection test, which has none. */
const TEST_SCENARIO = { id: '00000000-0000-0000-0000-000000000000', name: 'Connection test' };

type Greeting = {
  ok: boolean;
  greeting: string | null;
  latencyMs: number;
  error: AgentTestResult['error'];
};

/** The greeting round trip over the text channel. */
const textGreeting = async (deps: Deps, agent: repo.AgentRow): Promise<Greeting | null> => {
  const channel = openAgentChannel(deps, agent);
  if (!channel) return null;
  const reply = await channel.reply(
    {
      conversationId: `test_${randomUUID()}`,
      runId: `test_${randomUUID()}`,
      turn: 0,
      seed: randomInt(0, 2 ** 31 - 1),
      messages: [],
      scenario: TEST_SCENARIO,
      metadata: { purpose: 'connection_test' },
    },
    { timeoutMs: deps.config.simulationTurnTimeoutMs },
  );
  const greeting = reply.ok ? reply.text : null;
  return { ok: reply.ok, greeting, latencyMs: reply.latencyMs, error: reply.ok ? null : reply.error };
};

/**
 * Tests an agent's connection with one greeting: an empty conversation over the text channel, or
 * a media stream opened until the agent's first audio for a voice agent (no greeting text then),
 * as when a simulated call connects. A failure is a value (`ok: false` with a typed error), not
 * an error; an agent with no connection is a 422. The wait is the per-turn timeout of simulated calls.
 */
export const testAgent = async (deps: Deps, ctx: RequestContext, id: string): Promise<AgentTestResult> => {
  const agent = await repo.findAgent(
    deps.db,
    { organizationId: ctx.organizationId, workspaceId: ctx.workspaceId },
    id,
  );
  if (!agent) throw notFound('Agent');
  const result = isVoiceConnection(agent)
    ? { ...(await testVoiceGreeting(deps, agent)), greeting: null }
    : await textGreeting(deps, agent);
  if (!result || !agent.connection) {
    throw new ApiError('rule_violation', 'The agent has no connection to test; set `connection` first.');
  }
  const error = result.ok ? null : (result.error ?? null);
  const kind = agent.connection.kind;
  deps.logger.info({ agentId: agent.id, kind, ok: result.ok, code: error?.code ?? null }, 'agent:tested');
  return {
    ok: result.ok,
    kind,
    greeting: result.greeting,
    latency_ms: result.latencyMs,
    error,
    tested_at: deps.now().toISOString(),
  };
};
