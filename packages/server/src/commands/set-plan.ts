import { type OrganizationPlan, OrganizationPlanSchema, Uuid } from '@voice-eval/contract';
import type { Db } from '../db/knex.js';
import { iso } from '../db/rows.js';
import { ApiError, notFound } from '../errors.js';
import { setOrganizationPlan } from '../modules/auth/service.js';
import { createVoiceEvalServer } from '../server.js';
import { type CliCommand, DATA_DIR_HELP, DATA_DIR_OPTION, EXIT, stringOption } from './command.js';

/** What {@link setPlan} reports: the organization and its plan before and after. */
export type SetPlanResult = {
  organization_id: string;
  name: string;
  previous_plan: OrganizationPlan;
  plan: OrganizationPlan;
  updated_at: string;
};

/**
 * Sets an organization's plan (`free` or `enterprise`), for operators (the `set-plan` CLI
 * command). Throws `validation_failed` for a malformed id or plan and `not_found` for an unknown
 * organization. Running servers pick the change up within their credential cache TTL (5 s).
 */
export const setPlan = async (db: Db, organizationId: string, plan: string): Promise<SetPlanResult> => {
  if (!Uuid.safeParse(organizationId).success) {
    throw new ApiError('validation_failed', `Not an organization id: ${organizationId}`);
  }
  const parsed = OrganizationPlanSchema.safeParse(plan);
  if (!parsed.success) {
    throw new ApiError('validation_failed', `Unknown plan ${plan}; expected one of: free, enterprise`);
  }
  const changed = await setOrganizationPlan(db, organizationId, parsed.data);
  if (!changed) throw notFound('Organization');
  const { previous, updated } = changed;
  return {
    organization_id: updated.id,
    name: updated.name,
    previous_plan: previous,
    plan: updated.plan,
    updated_at: iso(updated.updated_at),
  };
};

/** `voice-eval set-plan ORG_ID PLAN`. */
export const setPlanCommand: CliCommand = {
  name: 'set-plan',
  summary: "set an organization's plan (enterprise enables ambient audio)",
  synopsis: 'set-plan ORG_ID free|enterprise [--data-dir DIR]',
  help: `Sets an organization's plan in the database directly. Running servers pick the change up within
5 seconds. Exits 1 for an unknown organization.

Options:
${DATA_DIR_HELP}`,
  options: { ...DATA_DIR_OPTION },
  positionals: { min: 2, max: 2 },
  run: async (args) => {
    const [organizationId, plan] = args.positionals as [string, string];
    const dataDir = stringOption(args, 'data-dir');
    const server = createVoiceEvalServer({ ...(dataDir ? { dataDir } : {}), workerConcurrency: 0 });
    try {
      await server.migrate();
      const result = await setPlan(server.deps.db, organizationId, plan);
      console.log(`${result.name} (${result.organization_id}): ${result.previous_plan} -> ${result.plan}`);
      return EXIT.ok;
    } catch (err) {
      if (!(err instanceof ApiError)) throw err;
      console.error(`voice-eval set-plan: ${err.detail ?? err.message}`);
      return EXIT.failed;
    } finally {
      await server.close();
    }
  },
};
