import type { AppRoute } from '@ts-rest/core';
import { contract } from '@voice-eval/contract';
import { type HttpHandler, http } from 'msw';
import type { Area } from '../core/route-types.js';

/** One contract route with its place in the contract. */
export interface RouteEntry {
  area: Area;
  name: string;
  route: AppRoute;
}

/** Every route of the contract, in declaration order (static paths before `/:id` ones). */
export const ROUTES: RouteEntry[] = Object.entries(contract).flatMap(([area, routes]) =>
  Object.entries(routes as Record<string, AppRoute>).map(([name, route]) => ({
    area: area as Area,
    name,
    route,
  })),
);

const pattern = (path: string): RegExp =>
  new RegExp(`^${path.replace(/[.*+?^${}()|[\]\\]/g, '\\$&').replace(/:[A-Za-z0-9_]+/g, '[^/]+')}$`);

/**
 * Paths of other routes (same method, no parameters) that `route`'s pattern also matches: an
 * override for `GET /call-imports/:id` must not answer `GET /call-imports/dispatch-diagnostics`.
 */
const shadowedPaths = (route: AppRoute): Set<string> => {
  if (!route.path.includes(':')) return new Set();
  const re = pattern(route.path);
  return new Set(
    ROUTES.filter((e) => e.route !== route && e.route.method === route.method && !e.route.path.includes(':'))
      .map((e) => e.route.path)
      .filter((path) => re.test(path)),
  );
};

type Answer = (request: Request, params: Record<string, unknown>) => Response | Promise<Response>;

/** An MSW handler for `route` under `baseUrl`; requests another route owns fall through. */
export const routeHandler = (
  baseUrl: string,
  route: AppRoute,
  answer: Answer,
  options?: { once?: boolean },
): HttpHandler => {
  const shadowed = shadowedPaths(route);
  const base = new URL(baseUrl).pathname.replace(/\/$/, '');
  const method = route.method.toLowerCase() as 'get' | 'post' | 'put' | 'patch' | 'delete';
  return http[method](
    `${baseUrl.replace(/\/$/, '')}${route.path}`,
    ({ request, params }) => {
      const path = new URL(request.url).pathname.slice(base.length);
      if (shadowed.has(path)) return undefined;
      return answer(request, params);
    },
    options,
  );
};
