import type { RequestContext } from '../../context.js';
import type { Deps } from '../../deps.js';
import { ApiError } from '../../errors.js';
import * as repo from './repo.js';
import { createCallImportSchema } from './service.js';

/** The schema every `simulation` call import of a workspace uses; created on a workspace's first run. */
export const SIMULATION_SCHEMA_NAME = 'Simulated calls';

const PARAMETERS = [
  { name: 'conversation_id', type: 'conversation_id', is_required: true, description: 'The call' },
  { name: 'suite_run_id', type: 'string', is_required: true, description: 'The suite run' },
  { name: 'persona', type: 'string', is_required: true, description: 'The simulated caller' },
  { name: 'scenario', type: 'string', is_required: true, description: 'What the caller wants' },
  { name: 'repetition', type: 'number', is_required: true, description: 'Repetition of the combination' },
] as const;

/**
 * The id of the workspace's simulation schema, creating it the first time. A concurrent first run
 * may create it meanwhile (409): then the one it created is used.
 */
export const simulationSchemaId = async (deps: Deps, ctx: RequestContext): Promise<string> => {
  const scope = { organizationId: ctx.organizationId, workspaceId: ctx.workspaceId };
  const existing = await repo.findSchemaByName(deps.db, scope, SIMULATION_SCHEMA_NAME);
  if (existing) return existing.id;
  try {
    const created = await createCallImportSchema(deps, ctx, {
      name: SIMULATION_SCHEMA_NAME,
      description: 'Transcripts of simulated calls written by suite runs.',
      parameters: PARAMETERS.map((p) => ({ ...p })),
    });
    return created.id;
  } catch (error) {
    if (!(error instanceof ApiError) || error.code !== 'conflict') throw error;
    const raced = await repo.findSchemaByName(deps.db, scope, SIMULATION_SCHEMA_NAME);
    if (!raced) throw error;
    return raced.id;
  }
};
