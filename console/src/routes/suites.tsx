import { createRoute, lazyRouteComponent } from '@tanstack/react-router';
import { z } from 'zod';
import { appRoute, optional, page } from './root.tsx';

const suitesRoute = createRoute({
  getParentRoute: () => appRoute,
  path: 'suites',
  validateSearch: z.object({ q: optional(z.string().max(200)), page }),
  component: lazyRouteComponent(() => import('../pages/suites/suites.tsx'), 'SuitesPage'),
});

const suiteRoute = createRoute({
  getParentRoute: () => appRoute,
  path: 'suites/$suiteId',
  component: lazyRouteComponent(() => import('../pages/suites/suite.tsx'), 'SuitePage'),
});

export const suitesRoutes = [suitesRoute, suiteRoute];
