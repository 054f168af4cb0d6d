import { createRoute, lazyRouteComponent } from '@tanstack/react-router';
import {
  CALL_IMPORT_SOURCE_FORMAT_FILTERS,
  CallImportStatusSchema,
  DiarisedTranscriptStatusSchema,
  EvaluationStatusSchema,
} from '@voice-eval/contract';
import { z } from 'zod';
import { appRoute, optional, page, uuid } from './root.tsx';

const importsRoute = createRoute({
  getParentRoute: () => appRoute,
  path: 'imports',
  validateSearch: z.object({
    status: optional(CallImportStatusSchema),
    format: optional(z.enum(CALL_IMPORT_SOURCE_FORMAT_FILTERS)),
    page,
  }),
  component: lazyRouteComponent(() => import('../pages/imports/imports.tsx'), 'ImportsPage'),
});

const importRoute = createRoute({
  getParentRoute: () => appRoute,
  path: 'imports/$importId',
  validateSearch: z.object({
    /** Substring of the conversation id. */
    q: optional(z.string().max(200)),
    transcript: optional(DiarisedTranscriptStatusSchema),
    page,
  }),
  component: lazyRouteComponent(() => import('../pages/imports/import.tsx'), 'ImportPage'),
});

const evaluationsRoute = createRoute({
  getParentRoute: () => appRoute,
  path: 'evaluations',
  validateSearch: z.object({ status: optional(EvaluationStatusSchema), import: uuid, page }),
  component: lazyRouteComponent(() => import('../pages/evaluations/evaluations.tsx'), 'EvaluationsPage'),
});

const evaluationRoute = createRoute({
  getParentRoute: () => appRoute,
  path: 'evaluations/$evaluationId',
  validateSearch: z.object({ flagged: optional(z.boolean()), page }),
  component: lazyRouteComponent(() => import('../pages/evaluations/evaluation.tsx'), 'EvaluationPage'),
});

/** Call imports (uploaded and simulated calls) and the evaluations that scored them. */
export const importsRoutes = [importsRoute, importRoute, evaluationsRoute, evaluationRoute];
