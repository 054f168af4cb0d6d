import { createRoute, lazyRouteComponent } from '@tanstack/react-router';
import { z } from 'zod';
import { appRoute, optional, page, uuid } from './root.tsx';

const productionCallsRoute = createRoute({
  getParentRoute: () => appRoute,
  path: 'production-calls',
  validateSearch: z.object({
    agent: uuid,
    /** The platform or submitter, exactly (`vapi`, `retell`, `custom`, ...). */
    provider: optional(z.string().trim().toLowerCase().min(1).max(64)),
    page,
  }),
  component: lazyRouteComponent(
    () => import('../pages/monitors/production-calls.tsx'),
    'ProductionCallsPage',
  ),
});

const monitorsRoute = createRoute({
  getParentRoute: () => appRoute,
  path: 'monitors',
  validateSearch: z.object({ agent: uuid, page }),
  component: lazyRouteComponent(() => import('../pages/monitors/monitors.tsx'), 'MonitorsPage'),
});

const monitorRoute = createRoute({
  getParentRoute: () => appRoute,
  path: 'monitors/$monitorId',
  /** The page of the alert history. */
  validateSearch: z.object({ page }),
  component: lazyRouteComponent(() => import('../pages/monitors/monitor.tsx'), 'MonitorPage'),
});

/** A live agent's calls as they arrive, and the monitors that score them and raise alerts. */
export const productionRoutes = [productionCallsRoute, monitorsRoute, monitorRoute];
