import { randomInt, randomUUID } from 'node:crypto';
import type { AgentTestResult } from '@voice-eval/contract';
import type { RequestContext } from '../../context.js';
import type { Deps } from '../../deps.js';
import { ApiError, notFound } from '../../errors.js';
import { openAgentChannel } from './channel.js';
import * as repo from './repo.js';

/** Stands in for the scenario of a connection test, which has none. */
const TEST_SCENARIO = { id: '00000000-0000-0000-0000-000000000000', name: 'Connection test' };

/**
 * Tests an agent's connection with one greeting round trip: an empty conversation, as when a
 * simulated call connects. A failure is a value (`ok: false` with a typed error), not an error;
 * an agent with no connection is a 422. The turn has the per-turn timeout of simulated calls.
 */
export const testAgent = async (deps: Deps, ctx: RequestContext, id: string): Promise<AgentTestResult> => {
  const agent = await repo.findAgent(
    deps.db,
    { organizationId: ctx.organizationId, workspaceId: ctx.workspaceId },
    id,
  );
  if (!agent) throw notFound('Agent');
  const channel = openAgentChannel(deps, agent);
  if (!channel || !agent.connection) {
    throw new ApiError('rule_violation', 'The agent has no connection to test; set `connection` first.');
  }
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
  const error = reply.ok ? null : reply.error;
  deps.logger.info(
    { agentId: agent.id, kind: agent.connection.kind, ok: reply.ok, code: error?.code ?? null },
    'agent:tested',
  );
  return {
    ok: reply.ok,
    kind: agent.connection.kind,
    greeting: reply.ok ? reply.text : null,
    latency_ms: reply.latencyMs,
    error,
    tested_at: deps.now().toISOString(),
  };
};
