import type { QueryClient } from '@tanstack/react-query';
import { createRootRouteWithContext, createRoute, redirect } from '@tanstack/react-router';
import { z } from 'zod';
import { Shell } from '../components/shell.tsx';
import { NotFoundPage } from '../pages/not-found.tsx';
import type { ConsoleSession } from '../session.ts';

export interface RouterContext {
  session: ConsoleSession;
  queryClient: QueryClient;
}

/**
 * Search params are parsed, never trusted: a value that does not fit is dropped (`catch`), so a
 * hand-edited or stale link still opens its page.
 */
export const optional = <T extends z.ZodTypeAny>(schema: T) => schema.optional().catch(undefined);
export const page = z.coerce.number().int().min(1).optional().catch(undefined);
export const uuid = optional(z.string().uuid());

export const rootRoute = createRootRouteWithContext<RouterContext>()({
  notFoundComponent: NotFoundPage,
});

/** Every page but the login: waits for the session, and sends to the login (and back) without one. */
export const appRoute = createRoute({
  getParentRoute: () => rootRoute,
  id: 'app',
  beforeLoad: async ({ context, location }) => {
    await context.session.start().catch(() => false);
    if (context.session.state !== 'signed-in') {
      throw redirect({ to: '/login', search: { redirect: location.href } });
    }
  },
  component: Shell,
});
