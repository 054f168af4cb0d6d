import type { AppRoute } from '@ts-rest/core';
import type { RouteMetadata } from '@voice-eval/contract';
import type { NextFunction, Request, Response } from 'express';
import { hasRole, type RequestContext } from '../context.js';
import type { Deps } from '../deps.js';
import { ApiError } from '../errors.js';
import { authenticateApiKey } from '../modules/api-keys/credentials.js';
import { type Authenticated, authenticateBearer, workspaceBelongsTo } from '../modules/auth/credentials.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

const credentialsOf = async (deps: Deps, req: Request): Promise<Authenticated | null | undefined> => {
  const authorization = req.get('authorization');
  const apiKey = req.get('x-api-key') ?? req.get('x-service-api-key');
  if (authorization) {
    const [scheme, token] = authorization.split(' ');
    if (scheme?.toLowerCase() !== 'bearer' || !token) return null;
    return authenticateBearer(deps, token);
  }
  if (apiKey) return authenticateApiKey(deps, apiKey);
  return undefined;
};

const resolveWorkspace = async (deps: Deps, req: Request, who: Authenticated): Promise<string> => {
  const requested = req.get('x-workspace-id');
  if (!requested) return who.defaultWorkspaceId;
  if (UUID.test(requested) && (await workspaceBelongsTo(deps, who.organizationId, requested)))
    return requested;
  throw new ApiError('not_found', 'Workspace not found');
};

/**
 * ts-rest global middleware: authenticates the caller, resolves the workspace and checks the
 * route's minimum role (`metadata.minRole`, else READER for reads and MEMBER for writes).
 * Public routes (`metadata.public`) pass through untouched, and so does a request to a route with
 * signed access that carries a `signature` (its handler checks the signature instead).
 */
export const authenticate =
  (deps: Deps) =>
  (req: Request & { tsRestRoute: AppRoute }, _res: Response, next: NextFunction): void => {
    const meta = (req.tsRestRoute.metadata ?? {}) as RouteMetadata;
    if (meta.public || (meta.binary?.signedAccess && req.query.signature !== undefined)) {
      next();
      return;
    }
    run(deps, req, meta).then(() => next(), next);
  };

const run = async (deps: Deps, req: Request, meta: RouteMetadata): Promise<void> => {
  const who = await credentialsOf(deps, req);
  if (who === undefined) throw new ApiError('unauthenticated', 'Send a bearer token or an API key.');
  if (who === null) throw new ApiError('unauthenticated', 'The credentials are invalid, expired or revoked.');
  const workspaceId = await resolveWorkspace(deps, req, who);
  const minRole = meta.minRole ?? (req.method === 'GET' || req.method === 'HEAD' ? 'READER' : 'MEMBER');
  if (!hasRole(who.role, minRole)) {
    throw new ApiError('forbidden', `This action needs the ${minRole} role or higher.`);
  }
  const ctx: RequestContext = {
    principal: who.principal,
    organizationId: who.organizationId,
    plan: who.plan,
    role: who.role,
    workspaceId,
    requestId: String(req.id),
  };
  req.ctx = ctx;
};
