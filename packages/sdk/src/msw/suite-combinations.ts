import type { EvaluatorSuite } from '@voice-eval/contract';
import type { MockEnv } from './env.js';

type Combination = EvaluatorSuite['combinations'][number];

/** What a suite create or update gives to build its combinations. */
export interface CombinationInput {
  workspaceId: string;
  personaIds: string[];
  scenarioIds: string[];
  /** The suite's combinations before an update: pairs that remain keep their id and evaluator. */
  previous?: Combination[];
}

/**
 * The persona and combination fields of a suite, as the server derives them: every persona
 * crossed with every scenario, ordered by persona (as given) then scenario name. Personas and
 * scenarios missing from the store get placeholder names, so fixture ids work too.
 */
export const combinationFields = (
  env: MockEnv,
  { workspaceId, personaIds, scenarioIds, previous = [] }: CombinationInput,
): Partial<EvaluatorSuite> => {
  const personas = personaIds.map((id, i) => {
    const stored = env.db.personas.get(id, workspaceId);
    return { id, name: stored?.name ?? `Persona ${i + 1}`, tts_provider: stored?.tts_provider ?? 'openai' };
  });
  const scenarios = scenarioIds
    .map((id, i) => {
      const stored = env.db.scenarios.get(id, workspaceId);
      return {
        id,
        name: stored?.name ?? `Scenario ${i + 1}`,
        description: stored?.description ?? '',
        required_info: stored?.required_info ?? null,
      };
    })
    .sort((a, b) => a.name.localeCompare(b.name));
  const kept = new Map(previous.map((c) => [`${c.persona_id}:${c.scenario_id}`, c]));
  const combinations = personas.flatMap((persona) =>
    scenarios.map((scenario): Combination => {
      const before = kept.get(`${persona.id}:${scenario.id}`);
      return {
        id: before?.id ?? env.seq.uuid(),
        evaluator_id: before?.evaluator_id ?? `EV-${env.seq.next()}`,
        persona_id: persona.id,
        persona_name: persona.name,
        scenario_id: scenario.id,
        scenario_name: scenario.name,
        scenario_description: scenario.description,
        scenario_required_info: scenario.required_info,
      };
    }),
  );
  return {
    persona_id: personaIds[0],
    persona_ids: personaIds,
    personas,
    persona_name: personas[0]?.name,
    combinations,
    combination_count: combinations.length,
  };
};
