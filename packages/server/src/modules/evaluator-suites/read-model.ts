import type { EvaluatorSuite } from '@voice-eval/contract';
import type { Knex } from 'knex';
import { iso, isoOrNull } from '../../db/rows.js';
import type { SuiteRow } from './repo.js';

type Scope = { organizationId: string; workspaceId: string };

type CombinationView = EvaluatorSuite['combinations'][number] & { suite_id: string };

/** Combinations of the suites with their evaluator code and persona and scenario names inlined. */
const combinationViews = async (db: Knex, suiteIds: string[]): Promise<CombinationView[]> => {
  const rows = await db('evaluator_suite_combinations as c')
    .join('evaluators as e', 'e.id', 'c.evaluator_id')
    .join('personas as p', 'p.id', 'c.persona_id')
    .join('scenarios as s', 's.id', 'c.scenario_id')
    .whereIn('c.suite_id', suiteIds)
    .select(
      'c.id',
      'c.suite_id',
      'e.evaluator_id',
      'c.persona_id',
      'p.name as persona_name',
      'c.scenario_id',
      's.name as scenario_name',
      's.description as scenario_description',
      's.required_info as scenario_required_info',
    );
  return rows.map((row) => ({ ...row, scenario_required_info: row.scenario_required_info ?? null }));
};

/** The suites' agents with the TTS provider of their voice bundle (null without one). */
type AgentView = {
  id: string;
  name: string;
  call_type: EvaluatorSuite['agent_call_type'];
  call_medium: EvaluatorSuite['agent_call_medium'];
  tts_provider: string | null;
};

const agentViews = (db: Knex, agentIds: string[]) =>
  db('agents as a')
    .leftJoin('voice_bundles as vb', (j) =>
      j.on('vb.id', 'a.voice_bundle_id').andOn('vb.workspace_id', 'a.workspace_id'),
    )
    .whereIn('a.id', agentIds)
    .select<AgentView[]>('a.id', 'a.name', 'a.call_type', 'a.call_medium', 'vb.tts_provider');

const personaViews = (db: Knex, ids: string[]) =>
  db('personas')
    .whereIn('id', ids)
    .select<{ id: string; name: string; tts_provider: string }[]>('id', 'name', 'tts_provider');

const suiteCounts = async (db: Knex, scope: Scope, agentIds: string[]) => {
  const rows = await db('evaluator_suites')
    .where({ organization_id: scope.organizationId, workspace_id: scope.workspaceId })
    .whereIn('agent_id', agentIds)
    .groupBy('agent_id')
    .select('agent_id', db.raw('count(*) as n'));
  return new Map(rows.map((row: { agent_id: string; n: number | string }) => [row.agent_id, Number(row.n)]));
};

/** Persona order (as in `persona_ids`), then scenario name, then id: the order round-robin runs walk. */
const ordered = (suite: SuiteRow, combos: CombinationView[]) => {
  const rank = new Map(suite.persona_ids.map((id, i) => [id, i]));
  return combos
    .filter((c) => c.suite_id === suite.id)
    .sort(
      (a, b) =>
        (rank.get(a.persona_id) ?? 0) - (rank.get(b.persona_id) ?? 0) ||
        a.scenario_name.localeCompare(b.scenario_name) ||
        a.id.localeCompare(b.id),
    )
    .map(({ suite_id: _s, ...combo }) => combo);
};

type Lookups = {
  combos: CombinationView[];
  agents: Map<string, AgentView>;
  personas: Map<string, { id: string; name: string; tts_provider: string }>;
  counts: Map<string, number>;
};

const toSuite = (suite: SuiteRow, { combos, agents, personas, counts }: Lookups): EvaluatorSuite => {
  // the agent cannot be deleted while a suite references it (foreign key), so it is always there
  const agent = agents.get(suite.agent_id)!;
  const suitePersonas = suite.persona_ids.flatMap((id) => {
    const p = personas.get(id);
    return p ? [{ id: p.id, name: p.name, tts_provider: p.tts_provider }] : [];
  });
  const combinations = ordered(suite, combos);
  return {
    id: suite.id,
    organization_id: suite.organization_id,
    name: suite.name,
    agent_id: suite.agent_id,
    persona_id: suite.persona_ids[0]!,
    persona_ids: suite.persona_ids,
    personas: suitePersonas,
    agent_name: agent.name,
    persona_name: suitePersonas[0]?.name ?? '',
    agent_call_type: agent.call_type,
    agent_call_medium: agent.call_medium,
    voice_bundle_tts_provider: agent.tts_provider,
    metric_ids: suite.metric_ids,
    llm_provider: suite.llm_provider,
    llm_model: suite.llm_model,
    llm_config: suite.llm_config,
    tags: suite.tags,
    default_runs_per_combination: suite.default_runs_per_combination,
    round_robin_index: suite.round_robin_index,
    is_active: suite.is_active,
    schedule: suite.schedule,
    schedule_enabled: suite.schedule_enabled,
    next_run_at: isoOrNull(suite.next_run_at),
    agent_suite_count: counts.get(suite.agent_id) ?? 0,
    combination_count: combinations.length,
    combinations,
    created_at: iso(suite.created_at),
    updated_at: iso(suite.updated_at),
    created_by: suite.created_by,
  };
};

/** The wire form of suites, with a fixed number of queries for the whole batch (lists and single gets). */
export const toSuites = async (db: Knex, scope: Scope, suites: SuiteRow[]): Promise<EvaluatorSuite[]> => {
  if (suites.length === 0) return [];
  const agentIds = [...new Set(suites.map((s) => s.agent_id))];
  const personaIds = [...new Set(suites.flatMap((s) => s.persona_ids))];
  const lookups: Lookups = {
    combos: await combinationViews(
      db,
      suites.map((s) => s.id),
    ),
    agents: new Map((await agentViews(db, agentIds)).map((a) => [a.id, a])),
    personas: new Map((await personaViews(db, personaIds)).map((p) => [p.id, p])),
    counts: await suiteCounts(db, scope, agentIds),
  };
  return suites.map((suite) => toSuite(suite, lookups));
};
