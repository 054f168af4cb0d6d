import { systemContext } from '../../context.js';
import type { Deps } from '../../deps.js';
import { ApiError } from '../../errors.js';
import {
  isVoiceConnection,
  openAgentChannel,
  openVoiceConnection,
  refusedVoiceAddress,
} from '../agents/channel.js';
import { requireAgent } from '../agents/service.js';
import type { ProviderRecordsSource } from '../evaluations/provider-records.js';
import { getSuite } from '../evaluator-suites/service.js';
import { requirePersonas } from '../personas/service.js';
import { requireScenario } from '../scenarios/service.js';
import { type ConversationOutcome, runConversation } from './conversation.js';
import { personaCaller } from './persona-model.js';
import type { CallRecord, RunRecord } from './repo.js';
import { ambientNoise } from './voice/ambience.js';
import { runVoiceCall, type VoiceOutcome } from './voice/voice-call.js';
import { personaEars, personaVoice } from './voice/voice-parties.js';

const failure = (
  code: 'agent_unreachable' | 'persona_model_error',
  message: string,
): ConversationOutcome => ({
  ok: false,
  error: { code, message },
  turns: [],
  agentLatenciesMs: [],
});

/** Everything a call needs, read when it starts (so an edit between runs applies to the next call). */
const loadParties = async (deps: Deps, call: CallRecord) => {
  const run = (await deps.db<RunRecord>('suite_runs').where({ id: call.run_id }).first())!;
  const ctx = systemContext(
    { organizationId: run.organization_id, workspaceId: run.workspace_id },
    `suite_run:${run.id}`,
  );
  const [agent, [persona], scenario, suite] = await Promise.all([
    requireAgent(deps.db, ctx, run.agent_id),
    requirePersonas(deps.db, ctx, [call.persona_id]),
    requireScenario(deps.db, ctx, call.scenario_id),
    getSuite(deps, ctx, run.suite_id),
  ]);
  return { run, agent, persona: persona!, scenario, suite };
};

/** A finished call: a voice call also has its recording and measures. */
export type CallOutcome = ConversationOutcome | VoiceOutcome;

/** A persona barges in on an agent utterance that has run this long (voice calls that allow it). */
export const BARGE_IN_AFTER_MS = 2500;

/**
 * Holds one simulated call: the suite's agent through its connection (text, or a Media Stream for
 * voice agents), the persona through the provider gateway. Something deleted since the run
 * started ends the call with a typed error.
 */
export const converse = async (
  deps: Deps,
  call: CallRecord,
  signal: AbortSignal,
  records: ProviderRecordsSource,
): Promise<CallOutcome> => {
  let parties: Awaited<ReturnType<typeof loadParties>>;
  try {
    parties = await loadParties(deps, call);
  } catch (error) {
    if (!(error instanceof ApiError) || error.code !== 'not_found') throw error;
    return failure(
      'agent_unreachable',
      `${error.detail ?? error.message} (deleted while the run was going).`,
    );
  }
  const { run, agent, persona, scenario, suite } = parties;
  const personaModel = suite.llm_config.persona_model;
  const caller = personaCaller(
    deps,
    {
      organizationId: run.organization_id,
      runId: run.id,
      seed: call.seed,
      callType: agent.call_type === 'outbound' ? 'outbound' : 'inbound',
      persona,
      scenario,
      model: typeof personaModel === 'string' ? personaModel : undefined,
    },
    records,
  );
  if (isVoiceConnection(agent)) {
    const stream = openVoiceConnection(deps, agent);
    if (!stream) {
      const refused = refusedVoiceAddress(deps, agent.connection);
      return failure(
        'agent_unreachable',
        refused ? `Address refused: ${refused}` : 'The agent has no connection.',
      );
    }
    const scope = { organizationId: run.organization_id, runId: run.id };
    const providerRecords = await records(run.organization_id);
    return runVoiceCall(
      {
        stream,
        caller,
        speak: personaVoice(deps, providerRecords, persona, scope),
        hear: personaEars(deps, providerRecords, scope),
        noise: await ambientNoise(deps, persona, call.seed),
      },
      {
        conversationId: call.conversation_id,
        maxTurns: persona.max_turns,
        responseDelayMs: persona.response_delay_ms,
        turnTimeoutMs: deps.config.simulationTurnTimeoutMs,
        allowInterruptions: persona.allow_interruptions,
        bargeInAfterMs: BARGE_IN_AFTER_MS,
      },
      signal,
    );
  }
  const channel = openAgentChannel(deps, agent);
  if (!channel) return failure('agent_unreachable', 'The agent has no connection.');
  return runConversation(
    channel,
    caller,
    {
      conversationId: call.conversation_id,
      runId: run.id,
      seed: call.seed,
      scenario: { id: scenario.id, name: scenario.name },
      metadata: { suite_id: run.suite_id, persona_id: persona.id, repetition: call.repetition },
      maxTurns: persona.max_turns,
      responseDelayMs: persona.response_delay_ms,
      turnTimeoutMs: deps.config.simulationTurnTimeoutMs,
    },
    signal,
  );
};
