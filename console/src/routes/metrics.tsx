import { createRoute, lazyRouteComponent } from '@tanstack/react-router';
import { MetricLifecycleSchema } from '@voice-eval/contract';
import { z } from 'zod';
import { appRoute, optional, page } from './root.tsx';

const metricsRoute = createRoute({
  getParentRoute: () => appRoute,
  path: 'metrics',
  validateSearch: z.object({
    /** `active` (the list's default) or `draft`. */
    lifecycle: optional(MetricLifecycleSchema),
    /** Substring of the name. */
    q: optional(z.string().max(200)),
    page,
  }),
  component: lazyRouteComponent(() => import('../pages/metrics/metrics.tsx'), 'MetricsPage'),
});

const metricRoute = createRoute({
  getParentRoute: () => appRoute,
  path: 'metrics/$metricId',
  component: lazyRouteComponent(() => import('../pages/metrics/metric.tsx'), 'MetricPage'),
});

/** Metrics (parents with their children, drafts and what flags each) and a rubric made into drafts. */
export const metricsRoutes = [metricsRoute, metricRoute];
