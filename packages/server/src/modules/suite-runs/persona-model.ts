import type { Deps } from '../../deps.js';
import { personaCallerV1, renderPrompt } from '../../providers/index.js';
import { recordUsage } from '../../usage/record-usage.js';
import type { ProviderRecordsSource } from '../evaluations/provider-records.js';
import type { CallerModel } from './conversation.js';

/** Who the persona is and what it wants, as the persona prompt needs them. */
export type PersonaSpec = {
  organizationId: string;
  runId: string;
  seed: number;
  callType: 'inbound' | 'outbound';
  persona: {
    name: string;
    gender: string;
    description: string;
    llm_temperature: number;
    llm_max_tokens: number;
  };
  scenario: { name: string; description: string; required_info: unknown };
  /** The suite's `llm_config.persona_model`; the provider's default model when unset. */
  model?: string;
};

/**
 * The persona played by the organization's chat provider (or the server default) through the
 * provider gateway, with the `persona_caller` prompt, the persona's temperature and token limit,
 * and the conversation's seed. Usage is recorded per organization under the run.
 */
export const personaCaller = (deps: Deps, spec: PersonaSpec, records: ProviderRecordsSource): CallerModel => {
  const onUsage = recordUsage(deps, {
    organizationId: spec.organizationId,
    purpose: 'suite_run_call.converse',
    jobId: spec.runId,
  });
  return async (turns, turnsLeft, signal) => {
    const picked = deps.providers.forOrganization(await records(spec.organizationId), { purpose: 'chat' });
    if (!picked.ok) return { ok: false, message: picked.error.message };
    const reply = await picked.provider.chat(
      {
        ...renderPrompt(personaCallerV1, {
          persona: spec.persona,
          scenario: {
            name: spec.scenario.name,
            description: spec.scenario.description,
            requiredInfo: spec.scenario.required_info,
          },
          callType: spec.callType,
          turns,
          turnsLeft,
        }),
        model: spec.model,
        temperature: spec.persona.llm_temperature,
        maxTokens: spec.persona.llm_max_tokens,
        seed: spec.seed,
      },
      { signal, onUsage },
    );
    if (!reply.ok) return { ok: false, message: `${reply.error.code}: ${reply.error.message}` };
    return { ok: true, text: reply.value.data.text, endCall: reply.value.data.end_call };
  };
};
