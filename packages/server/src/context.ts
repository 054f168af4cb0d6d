import type { OrganizationPlan, Role } from '@voice-eval/contract';
import { ApiError } from './errors.js';

/**
 * Who is calling: an interactive user (bearer token), an organization API key, or the server
 * itself acting for an organization in the background (a suite's schedule, a run's evaluation).
 */
export type Principal =
  | { kind: 'user'; userId: string; email: string }
  | { kind: 'api_key'; apiKeyId: string; name: string; prefix: string }
  | { kind: 'system'; label: string };

/** What every service function receives: the caller, and the organization and workspace it acts in. */
export type RequestContext = {
  principal: Principal;
  organizationId: string;
  plan: OrganizationPlan;
  role: Role;
  workspaceId: string;
  requestId: string;
};

/** Higher ranks include every right of the lower ones. */
export const ROLE_RANK: Record<Role, number> = { READER: 0, MEMBER: 1, ADMIN: 2, OWNER: 3 };

export const hasRole = (role: Role, minimum: Role): boolean => ROLE_RANK[role] >= ROLE_RANK[minimum];

/** The user id or the API key's creator, as recorded in `created_by` columns. */
export const actorLabel = (ctx: RequestContext): string => {
  const p = ctx.principal;
  if (p.kind === 'user') return p.email;
  return p.kind === 'api_key' ? `api_key:${p.prefix}` : `system:${p.label}`;
};

/**
 * The context of work the server does for an organization on its own (no request): acts with the
 * ADMIN role in one workspace, and records `system:<label>` as its actor.
 */
export const systemContext = (
  scope: { organizationId: string; workspaceId: string; plan?: OrganizationPlan },
  label: string,
): RequestContext => ({
  principal: { kind: 'system', label },
  organizationId: scope.organizationId,
  workspaceId: scope.workspaceId,
  plan: scope.plan ?? 'free',
  role: 'ADMIN',
  requestId: `system-${label}`,
});

/** The context `http/authenticate.ts` resolved for this request; routes of authenticated endpoints call it. */
export const contextOf = (req: { ctx?: RequestContext }): RequestContext => {
  if (!req.ctx) throw new ApiError('unauthenticated', 'Send a bearer token or an API key.');
  return req.ctx;
};

declare global {
  namespace Express {
    interface Request {
      /** Set by `http/authenticate.ts` on every non-public route. */
      ctx?: RequestContext;
      /** The request id (`http/request-id.ts`), echoed in `X-Request-Id`. */
      id?: string;
      /** A logger bound to the request id (`http/logging.ts`). */
      log?: import('pino').Logger;
    }
  }
}
