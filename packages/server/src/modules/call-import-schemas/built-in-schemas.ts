import type { CallImportSchemaCreateBody } from '@voice-eval/contract';
import type { RequestContext } from '../../context.js';
import type { Deps } from '../../deps.js';
import { ApiError } from '../../errors.js';
import * as repo from './repo.js';
import { createCallImportSchema } from './service.js';

/** The schema every `simulation` call import of a workspace uses; created on a workspace's first run. */
export const SIMULATION_SCHEMA: CallImportSchemaCreateBody = {
  name: 'Simulated calls',
  description: 'Transcripts of simulated calls written by suite runs.',
  parameters: [
    { name: 'conversation_id', type: 'conversation_id', is_required: true, description: 'The call' },
    { name: 'suite_run_id', type: 'string', is_required: true, description: 'The suite run' },
    { name: 'persona', type: 'string', is_required: true, description: 'The simulated caller' },
    { name: 'scenario', type: 'string', is_required: true, description: 'What the caller wants' },
    { name: 'repetition', type: 'number', is_required: true, description: 'Repetition of the combination' },
  ],
};

/** The schema of every `production` call import of a workspace (a live agent's calls); made on its first call. */
export const PRODUCTION_SCHEMA: CallImportSchemaCreateBody = {
  name: 'Production calls',
  description: "A live agent's calls, pushed by its platform or submitted through the API.",
  parameters: [
    {
      name: 'conversation_id',
      type: 'conversation_id',
      is_required: true,
      description: "The platform's call id",
    },
    { name: 'provider', type: 'string', is_required: true, description: 'The platform the call came from' },
    {
      name: 'started_at',
      type: 'string',
      is_required: false,
      description: 'When the call started (ISO 8601)',
    },
    { name: 'end_reason', type: 'string', is_required: false, description: "The platform's end reason" },
  ],
};

/**
 * The id of one of the workspace's built-in schemas, creating it the first time. A concurrent first
 * use may create it meanwhile (409): then the one it created is used.
 */
export const builtInSchemaId = async (
  deps: Deps,
  ctx: RequestContext,
  schema: CallImportSchemaCreateBody,
): Promise<string> => {
  const scope = { organizationId: ctx.organizationId, workspaceId: ctx.workspaceId };
  const existing = await repo.findSchemaByName(deps.db, scope, schema.name);
  if (existing) return existing.id;
  try {
    return (await createCallImportSchema(deps, ctx, schema)).id;
  } catch (error) {
    if (!(error instanceof ApiError) || error.code !== 'conflict') throw error;
    const raced = await repo.findSchemaByName(deps.db, scope, schema.name);
    if (!raced) throw error;
    return raced.id;
  }
};
