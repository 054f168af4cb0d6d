import { createRoute, lazyRouteComponent, redirect } from '@tanstack/react-router';
import { WebhookDeliveryStatusSchema } from '@voice-eval/contract';
import { z } from 'zod';
import { appRoute, optional, page } from './root.tsx';

const settingsRoute = createRoute({
  getParentRoute: () => appRoute,
  path: 'settings',
  beforeLoad: () => {
    throw redirect({ to: '/settings/workspaces' });
  },
});

const workspacesRoute = createRoute({
  getParentRoute: () => appRoute,
  path: 'settings/workspaces',
  validateSearch: z.object({ page }),
  component: lazyRouteComponent(() => import('../pages/settings/workspaces.tsx'), 'WorkspacesPage'),
});

const providersRoute = createRoute({
  getParentRoute: () => appRoute,
  path: 'settings/providers',
  validateSearch: z.object({ page }),
  component: lazyRouteComponent(() => import('../pages/settings/providers.tsx'), 'ProvidersPage'),
});

const apiKeysRoute = createRoute({
  getParentRoute: () => appRoute,
  path: 'settings/api-keys',
  validateSearch: z.object({ revoked: optional(z.boolean()), page }),
  component: lazyRouteComponent(() => import('../pages/settings/api-keys.tsx'), 'ApiKeysPage'),
});

const webhooksRoute = createRoute({
  getParentRoute: () => appRoute,
  path: 'settings/webhooks',
  validateSearch: z.object({ page }),
  component: lazyRouteComponent(() => import('../pages/settings/webhooks.tsx'), 'WebhooksPage'),
});

const webhookRoute = createRoute({
  getParentRoute: () => appRoute,
  path: 'settings/webhooks/$endpointId',
  validateSearch: z.object({ status: optional(WebhookDeliveryStatusSchema), page }),
  component: lazyRouteComponent(() => import('../pages/settings/webhook.tsx'), 'WebhookPage'),
});

/** The organization's settings: workspaces, AI providers, API keys, webhook endpoints. */
export const settingsRoutes = [
  settingsRoute,
  workspacesRoute,
  providersRoute,
  apiKeysRoute,
  webhooksRoute,
  webhookRoute,
];
