import { createRoute, lazyRouteComponent } from '@tanstack/react-router';
import { z } from 'zod';
import { appRoute, page } from './root.tsx';

const reviewQueuesRoute = createRoute({
  getParentRoute: () => appRoute,
  path: 'review',
  validateSearch: z.object({ page }),
  component: lazyRouteComponent(() => import('../pages/review/queues.tsx'), 'ReviewQueuesPage'),
});

const labelRoute = createRoute({
  getParentRoute: () => appRoute,
  path: 'review/$queueId',
  component: lazyRouteComponent(() => import('../pages/review/label.tsx'), 'LabelPage'),
});

/** Review queues (calls sampled for people to label) and the keyboard-first page that labels them. */
export const reviewRoutes = [reviewQueuesRoute, labelRoute];
