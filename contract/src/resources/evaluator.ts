import { z } from 'zod';
import { JsonObject, Timestamp, Uuid } from '../common.js';

/**
 * One test to run: an agent, a scenario and a persona, scored with a set of metrics by an LLM
 * judge. Created in the active workspace; `evaluator_id` is a short human-readable code unique
 * within the organization (e.g. `EV-7K2Q9D`).
 */
export const EvaluatorSchema = z.object({
  id: Uuid,
  evaluator_id: z.string(),
  organization_id: Uuid,
  name: z.string(),
  agent_id: Uuid,
  persona_id: Uuid,
  scenario_id: Uuid,
  /** Extra instructions for the simulated caller; empty when none. */
  custom_prompt: z.string(),
  metric_ids: z.array(Uuid),
  /** Judge provider (an AIProvider `provider`); null uses the organization's default at run time. */
  llm_provider: z.string().nullable(),
  /** Judge model; null uses the provider's default model at run time. */
  llm_model: z.string().nullable(),
  /** Extra judge settings (temperature, max_tokens, ...). */
  llm_config: JsonObject,
  tags: z.array(z.string()),
  created_at: Timestamp,
  updated_at: Timestamp,
  created_by: z.string(),
});
export type Evaluator = z.infer<typeof EvaluatorSchema>;

const NAME = z.string().trim().min(1).max(200);
const TAGS = z.array(z.string().trim().min(1).max(100)).max(50);
const METRIC_IDS = z.array(Uuid).max(200);

/** Fields that may change after creation; agent, scenario and persona are fixed. */
const writableFields = {
  name: NAME,
  custom_prompt: z.string().max(20_000),
  metric_ids: METRIC_IDS,
  llm_provider: z.string().trim().min(1).max(64).nullable(),
  llm_model: z.string().trim().min(1).max(200).nullable(),
  llm_config: JsonObject,
  tags: TAGS,
};

/**
 * Create an evaluator: `agent_id`, `persona_id` and `scenario_id` required, each of the caller's
 * workspace (404 otherwise). `name` defaults to "<agent> / <scenario> / <persona>".
 */
export const EvaluatorCreateBodySchema = z
  .object({ agent_id: Uuid, persona_id: Uuid, scenario_id: Uuid, ...writableFields })
  .partial()
  .required({ agent_id: true, persona_id: true, scenario_id: true });
export type EvaluatorCreateBody = z.infer<typeof EvaluatorCreateBodySchema>;

export const EvaluatorUpdateBodySchema = z.object(writableFields).partial();
export type EvaluatorUpdateBody = z.infer<typeof EvaluatorUpdateBodySchema>;

export const EvaluatorListQuerySchema = z.object({
  agent_id: Uuid.optional(),
  scenario_id: Uuid.optional(),
  persona_id: Uuid.optional(),
  /** Evaluators carrying this tag. */
  tag: z.string().max(100).optional(),
  /** Case-insensitive substring of the name or `evaluator_id`. */
  q: z.string().max(200).optional(),
});

/**
 * Deprecated bulk create: one evaluator per persona for the same agent and scenario, all or
 * nothing. Names are "<name_prefix or agent name> / <scenario> / <persona>".
 */
export const EvaluatorBulkCreateBodySchema = z.object({
  agent_id: Uuid,
  scenario_id: Uuid,
  persona_ids: z.array(Uuid).min(1).max(100),
  metric_ids: METRIC_IDS.optional(),
  name_prefix: z.string().trim().min(1).max(150).optional(),
  tags: TAGS.optional(),
});
export type EvaluatorBulkCreateBody = z.infer<typeof EvaluatorBulkCreateBodySchema>;
