import { z } from 'zod';
import { JsonObject, qBool, Timestamp, Uuid } from '../common.js';
import { AgentCallMediumSchema, AgentCallTypeSchema } from './agent.js';
import { RequiredInfoSchema } from './scenario.js';

/** A persona of a suite, as summarised on the suite. */
export const EvaluatorSuitePersonaSchema = z.object({
  id: Uuid,
  name: z.string(),
  tts_provider: z.string(),
});

/**
 * One persona x scenario pair of a suite, backed by an evaluator: `evaluator_id` is that
 * evaluator's human-readable code. Scenario fields are copied for display.
 */
export const EvaluatorSuiteCombinationSchema = z.object({
  id: Uuid,
  evaluator_id: z.string(),
  persona_id: Uuid,
  persona_name: z.string(),
  scenario_id: Uuid,
  scenario_name: z.string(),
  scenario_description: z.string(),
  scenario_required_info: RequiredInfoSchema,
});

/**
 * A group of evaluators for one agent: every persona crossed with every scenario. Runs pick
 * combinations round-robin (`round_robin_index` is the next one) and run each
 * `default_runs_per_combination` times unless told otherwise.
 */
export const EvaluatorSuiteSchema = z.object({
  id: Uuid,
  organization_id: Uuid,
  name: z.string(),
  agent_id: Uuid,
  /** The first of `persona_ids`, kept for single-persona clients. */
  persona_id: Uuid,
  persona_ids: z.array(Uuid),
  personas: z.array(EvaluatorSuitePersonaSchema),
  agent_name: z.string(),
  /** Name of the first persona (see `persona_id`). */
  persona_name: z.string(),
  agent_call_type: AgentCallTypeSchema,
  agent_call_medium: AgentCallMediumSchema,
  /** TTS provider of the agent's voice bundle; null when the agent has no voice bundle. */
  voice_bundle_tts_provider: z.string().nullable(),
  /** Ids (UUID strings) of the metrics every combination is scored with. */
  metric_ids: z.array(z.string()),
  /** Judge provider; null uses the organization's default at run time. */
  llm_provider: z.string().nullable(),
  /** Judge model; null uses the provider's default model at run time. */
  llm_model: z.string().nullable(),
  llm_config: JsonObject,
  tags: z.array(z.string()),
  default_runs_per_combination: z.number().int().min(1),
  /** Index into `combinations` of the next one a round-robin run picks. */
  round_robin_index: z.number().int().min(0),
  is_active: z.boolean(),
  /** A cron expression (5 fields, UTC) on which runs start by themselves; null when none. */
  schedule: z.string().nullable(),
  /** Whether `schedule` starts runs; a suite keeps its schedule while this is false. */
  schedule_enabled: z.boolean(),
  /** When the schedule next starts a run; null without an enabled schedule. */
  next_run_at: Timestamp.nullable(),
  /** Number of suites (this one included) of the same agent. */
  agent_suite_count: z.number().int().min(0),
  combination_count: z.number().int().min(0),
  /** Ordered by persona (in `persona_ids` order), then scenario name. */
  combinations: z.array(EvaluatorSuiteCombinationSchema),
  created_at: Timestamp,
  updated_at: Timestamp,
  created_by: z.string(),
});
export type EvaluatorSuite = z.infer<typeof EvaluatorSuiteSchema>;

const PERSONA_IDS = z.array(Uuid).min(1).max(50);
const SCENARIO_IDS = z.array(Uuid).min(1).max(200);

/** Fields that may change after creation; the agent is fixed. */
const writableFields = {
  name: z.string().trim().min(1).max(200),
  persona_ids: PERSONA_IDS,
  /** Scenarios crossed with the personas to build the combinations (one evaluator each). */
  scenario_ids: SCENARIO_IDS,
  metric_ids: z.array(Uuid).max(200),
  llm_provider: z.string().trim().min(1).max(64).nullable(),
  llm_model: z.string().trim().min(1).max(200).nullable(),
  llm_config: JsonObject,
  tags: z.array(z.string().trim().min(1).max(100)).max(50),
  default_runs_per_combination: z.number().int().min(1).max(100),
  is_active: z.boolean(),
  /** Cron expression, 5 fields (minute hour day-of-month month day-of-week), evaluated in UTC. */
  schedule: z.string().trim().min(9).max(120).nullable(),
  schedule_enabled: z.boolean(),
};

/**
 * Create a suite: `name`, `agent_id`, `persona_ids` and `scenario_ids` required; one evaluator
 * is created per persona x scenario. `default_runs_per_combination` defaults to 1.
 */
export const EvaluatorSuiteCreateBodySchema = z.object({
  agent_id: Uuid,
  name: writableFields.name,
  persona_ids: PERSONA_IDS,
  scenario_ids: SCENARIO_IDS,
  metric_ids: writableFields.metric_ids.optional(),
  llm_provider: writableFields.llm_provider.optional(),
  llm_model: writableFields.llm_model.optional(),
  llm_config: writableFields.llm_config.optional(),
  tags: writableFields.tags.optional(),
  default_runs_per_combination: writableFields.default_runs_per_combination.default(1),
  is_active: z.boolean().optional(),
  schedule: writableFields.schedule.optional(),
  schedule_enabled: z.boolean().optional(),
});
export type EvaluatorSuiteCreateBody = z.infer<typeof EvaluatorSuiteCreateBodySchema>;

/**
 * Update: every field optional. Changing `persona_ids` or `scenario_ids` rebuilds the
 * combinations; pairs that remain keep their evaluator.
 */
export const EvaluatorSuiteUpdateBodySchema = z.object(writableFields).partial();
export type EvaluatorSuiteUpdateBody = z.infer<typeof EvaluatorSuiteUpdateBodySchema>;

export const EvaluatorSuiteListQuerySchema = z.object({
  agent_id: Uuid.optional(),
  is_active: qBool.optional(),
  tag: z.string().max(100).optional(),
  /** Case-insensitive substring of the name. */
  q: z.string().max(200).optional(),
});
