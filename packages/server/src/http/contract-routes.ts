import { type AppRoute, type AppRouter, isAppRoute } from '@ts-rest/core';

/** Every route of a contract (or of one of its areas), depth first, in declaration order. */
export const routesOf = (router: AppRouter): AppRoute[] =>
  Object.values(router).flatMap((node) => (isAppRoute(node) ? [node] : routesOf(node)));
