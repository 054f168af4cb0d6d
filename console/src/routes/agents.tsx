import { createRoute, lazyRouteComponent } from '@tanstack/react-router';
import { AgentCallMediumSchema } from '@voice-eval/contract';
import { z } from 'zod';
import { appRoute, optional, page } from './root.tsx';

const agentsRoute = createRoute({
  getParentRoute: () => appRoute,
  path: 'agents',
  validateSearch: z.object({
    /** Substring of the name. */
    q: optional(z.string().max(200)),
    medium: optional(AgentCallMediumSchema),
    page,
  }),
  component: lazyRouteComponent(() => import('../pages/agents.tsx'), 'AgentsPage'),
});

/** The agents under test, how each is reached, and a test of its connection. */
export const agentsRoutes = [agentsRoute];
