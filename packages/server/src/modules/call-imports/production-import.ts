import { actorLabel, systemContext } from '../../context.js';
import type { Deps } from '../../deps.js';
import { builtInSchemaId, PRODUCTION_SCHEMA } from '../call-import-schemas/built-in-schemas.js';
import { type ProductionImport, productionImportFor } from './production.js';

/** The agent a production import belongs to. */
export type ProductionAgent = { id: string; name: string; workspace_id: string };

/**
 * Each agent's production import, remembered per server: it is made once and never changes, and
 * every delivery needs it. One deleted meanwhile is dropped with `forgetProductionImport`.
 */
const importCache = new WeakMap<Deps, Map<string, ProductionImport>>();

/** The agent's production import (found, else made), remembered for this server. */
export const agentProductionImport = async (
  deps: Deps,
  organizationId: string,
  agent: ProductionAgent,
  actor: string,
): Promise<ProductionImport> => {
  const cache = importCache.get(deps) ?? new Map<string, ProductionImport>();
  importCache.set(deps, cache);
  const cached = cache.get(agent.id);
  if (cached) return cached;
  const ctx = systemContext({ organizationId, workspaceId: agent.workspace_id }, actor);
  const schemaId = await builtInSchemaId(deps, ctx, PRODUCTION_SCHEMA);
  const target = await productionImportFor(
    deps.db,
    { organizationId, workspaceId: agent.workspace_id, agentId: agent.id },
    { schemaId, agentName: agent.name, createdBy: actorLabel(ctx) },
  );
  cache.set(agent.id, target);
  return target;
};

/** Forgets the agent's remembered import (it was deleted): the next call finds or makes it again. */
export const forgetProductionImport = (deps: Deps, agentId: string): void => {
  importCache.get(deps)?.delete(agentId);
};
