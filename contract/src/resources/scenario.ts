import { z } from 'zod';
import { Timestamp, Uuid } from '../common.js';

/**
 * Any JSON value, or null. Scenarios use it for `required_info`: the facts a simulated caller
 * must supply or obtain (free-form: text, a list, or an object).
 */
export const RequiredInfoSchema = z
  .union([z.string(), z.number(), z.boolean(), z.array(z.unknown()), z.record(z.string(), z.unknown())])
  .nullable();
export type RequiredInfo = z.infer<typeof RequiredInfoSchema>;

/** A test situation for a simulated caller, in a workspace; optionally bound to one agent. */
export const ScenarioSchema = z.object({
  id: Uuid,
  organization_id: Uuid,
  workspace_id: Uuid,
  /** The agent the scenario is written for; null when it applies to any agent. */
  agent_id: Uuid.nullable(),
  name: z.string(),
  description: z.string(),
  required_info: RequiredInfoSchema,
  created_at: Timestamp,
  updated_at: Timestamp,
  created_by: z.string(),
});
export type Scenario = z.infer<typeof ScenarioSchema>;

const writableFields = {
  agent_id: Uuid.nullable(),
  name: z.string().trim().min(1).max(200),
  description: z.string().max(20_000),
  required_info: RequiredInfoSchema,
};

/** Create a scenario: `name` required. */
export const ScenarioCreateBodySchema = z.object(writableFields).partial().required({ name: true });
export type ScenarioCreateBody = z.infer<typeof ScenarioCreateBodySchema>;

export const ScenarioUpdateBodySchema = z.object(writableFields).partial();
export type ScenarioUpdateBody = z.infer<typeof ScenarioUpdateBodySchema>;

export const ScenarioListQuerySchema = z.object({
  /** Scenarios of this agent (scenarios bound to no agent are not included). */
  agent_id: Uuid.optional(),
  /** Case-insensitive substring of the name. */
  q: z.string().max(200).optional(),
});
