import { createRoute, createRouter, lazyRouteComponent, redirect } from '@tanstack/react-router';
import { SuiteRunCallStatusSchema, SuiteRunStatusSchema } from '@voice-eval/contract';
import { z } from 'zod';
import { ProblemView } from './components/problem.tsx';
import { CallPage } from './pages/call.tsx';
import { ClustersPage } from './pages/clusters.tsx';
import { ComparePage } from './pages/compare.tsx';
import { LoginPage } from './pages/login.tsx';
import { NotFoundPage } from './pages/not-found.tsx';
import { RunPage } from './pages/run.tsx';
import { RunsPage } from './pages/runs.tsx';
import { agentsRoutes } from './routes/agents.tsx';
import { importsRoutes } from './routes/imports.tsx';
import { metricsRoutes } from './routes/metrics.tsx';
import { productionRoutes } from './routes/production.tsx';
import { reviewRoutes } from './routes/review.tsx';
import { appRoute, optional, page, type RouterContext, rootRoute, uuid } from './routes/root.tsx';
import { settingsRoutes } from './routes/settings.tsx';
import { suitesRoutes } from './routes/suites.tsx';

export type { RouterContext };

const loginRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: 'login',
  validateSearch: z.object({ redirect: optional(z.string().regex(/^\/(?!\/)/)) }),
  component: LoginPage,
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
    persona: uuid,
    scenario: uuid,
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

const compareCallRoute = createRoute({
  getParentRoute: () => appRoute,
  path: 'runs/$runId/compare/$rowId',
  validateSearch: z.object({ baseline: uuid, combination: uuid, metric: uuid }),
  component: lazyRouteComponent(() => import('./pages/compare-call.tsx'), 'CompareCallPage'),
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
    /** The evaluation whose verdicts to show (default: the run's, else the import's latest). */
    evaluation: uuid,
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
  appRoute.addChildren([
    indexRoute,
    runsRoute,
    runRoute,
    compareRoute,
    compareCallRoute,
    callRoute,
    clustersRoute,
    ...suitesRoutes,
    ...importsRoutes,
    ...productionRoutes,
    ...metricsRoutes,
    ...reviewRoutes,
    ...agentsRoutes,
    ...settingsRoutes,
  ]),
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
