import type { QueryClient } from '@tanstack/react-query';
import { createRootRouteWithContext, createRoute, createRouter, redirect } from '@tanstack/react-router';
import { SuiteRunCallStatusSchema, SuiteRunStatusSchema } from '@voice-eval/contract';
import { z } from 'zod';
import { ProblemView } from './components/problem.tsx';
import { Shell } from './components/shell.tsx';
import { CallPage } from './pages/call.tsx';
import { ClustersPage } from './pages/clusters.tsx';
import { ComparePage } from './pages/compare.tsx';
import { LoginPage } from './pages/login.tsx';
import { NotFoundPage } from './pages/not-found.tsx';
import { RunPage } from './pages/run.tsx';
import { RunsPage } from './pages/runs.tsx';
import type { ConsoleSession } from './session.ts';

export interface RouterContext {
  session: ConsoleSession;
  queryClient: QueryClient;
}

/**
 * Search params are parsed, never trusted: a value that does not fit is dropped (`catch`), so a
 * hand-edited or stale link still opens its page.
 */
const optional = <T extends z.ZodTypeAny>(schema: T) => schema.optional().catch(undefined);
const page = z.coerce.number().int().min(1).optional().catch(undefined);
const uuid = optional(z.string().uuid());

const rootRoute = createRootRouteWithContext<RouterContext>()({
  notFoundComponent: NotFoundPage,
});

const loginRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: 'login',
  validateSearch: z.object({ redirect: optional(z.string().regex(/^\/(?!\/)/)) }),
  component: LoginPage,
});

/** Every page but the login: waits for the session, and sends to the login (and back) without one. */
const appRoute = createRoute({
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

const indexRoute = createRoute({
  getParentRoute: () => appRoute,
  path: '/',
  beforeLoad: () => {
    throw redirect({ to: '/runs' });
  },
});

const runsRoute = createRoute({
  getParentRoute: () => appRoute,
  path: 'runs',
  validateSearch: z.object({ status: optional(SuiteRunStatusSchema), page }),
  component: RunsPage,
});

const runRoute = createRoute({
  getParentRoute: () => appRoute,
  path: 'runs/$runId',
  validateSearch: z.object({
    status: optional(SuiteRunCallStatusSchema),
    flagged: optional(z.boolean()),
    metric: uuid,
    page,
  }),
  component: RunPage,
});

const compareRoute = createRoute({
  getParentRoute: () => appRoute,
  path: 'runs/$runId/compare',
  validateSearch: z.object({ baseline: uuid }),
  component: ComparePage,
});

const callRoute = createRoute({
  getParentRoute: () => appRoute,
  path: 'calls/$rowId',
  validateSearch: z.object({
    /** The import the row belongs to (a run's calls are rows of the run's import). */
    import: uuid,
    /** The suite run and its call, when the call was simulated: its voice events come from there. */
    run: uuid,
    call: uuid,
    /** Seconds into the recording to start at. */
    t: optional(z.coerce.number().min(0)),
    metric: uuid,
  }),
  component: CallPage,
});

const clustersRoute = createRoute({
  getParentRoute: () => appRoute,
  path: 'clusters',
  validateSearch: z.object({ metric: uuid, evaluation: uuid }),
  component: ClustersPage,
});

const routeTree = rootRoute.addChildren([
  loginRoute,
  appRoute.addChildren([indexRoute, runsRoute, runRoute, compareRoute, callRoute, clustersRoute]),
]);

export const createConsoleRouter = ({ basePath, ...context }: RouterContext & { basePath: string }) =>
  createRouter({
    routeTree,
    basepath: basePath,
    context,
    defaultPreload: 'intent',
    defaultNotFoundComponent: NotFoundPage,
    // a page that fails to render says so, in words, inside the frame
    defaultErrorComponent: ({ error }) => <ProblemView error={error} what="page" />,
    scrollRestoration: true,
  });

declare module '@tanstack/react-router' {
  interface Register {
    router: ReturnType<typeof createConsoleRouter>;
  }
}
