/**
 * @voice-eval/contract: the single source of truth for the voice-eval HTTP API.
 *
 * Terminology
 * - Organization: the tenant. Owns workspaces, members, API keys, AI providers and integrations.
 * - Workspace: a partition of an organization's data. Every organization has one default
 *   workspace; a request picks one with `X-Workspace-Id` or gets the default.
 * - Membership: a user's role in an organization: OWNER > ADMIN > MEMBER > READER.
 * - Metric: a scoring definition. A parent category (`selection_mode` set) holds boolean
 *   child sub-metrics; depth is at most 2. Drafts (`lifecycle: draft`) are hidden from evaluations.
 * - Call import: a batch of recorded calls (rows) described by a call-import schema.
 * - Row: one call of an import, identified by its `conversation_id`; it may be transcribed and
 *   diarised into agent/user turns (`diarised_transcript_status`).
 * - Evaluation (job): the scoring of an import's rows with a set of metrics by an LLM judge.
 * - Evaluator: an agent + scenario + persona (+ metrics) to test; a suite groups evaluators.
 * - Suite run: simulated calls of a suite's combinations to its agent (a persona model plays the
 *   caller), written as a `simulation` call import and scored by an evaluation; `compare` tests a
 *   drop against a baseline run for significance.
 * - Metric clusters: groups of flagged evaluation rows by root cause, per metric.
 * - Webhook endpoint: an organization's URL that events (`evaluation.completed`, ...) are POSTed
 *   to, signed with the Standard Webhooks scheme; a delivery is one event on its way to one endpoint.
 * - Problem: the RFC 9457 error body of every non-2xx response.
 */
import { type AppRouter, initContract, type RouterOptions } from '@ts-rest/core';
import { BaseHeadersSchema, commonResponses } from './common.js';
import { agents } from './routes/agents.js';
import { aiProviders } from './routes/ai-providers.js';
import { apiKeys } from './routes/api-keys.js';
import { auth } from './routes/auth.js';
import { callImportSchemas } from './routes/call-import-schemas.js';
import { callImports } from './routes/call-imports.js';
import { consistencyChecks } from './routes/consistency-checks.js';
import { evaluations } from './routes/evaluations.js';
import { evaluatorResults } from './routes/evaluator-results.js';
import { evaluatorSuites } from './routes/evaluator-suites.js';
import { evaluators } from './routes/evaluators.js';
import { integrations } from './routes/integrations.js';
import { invitations } from './routes/invitations.js';
import { metrics } from './routes/metrics.js';
import { monitors } from './routes/monitors.js';
import { personas } from './routes/personas.js';
import { productionCalls } from './routes/production-calls.js';
import { reviewQueues } from './routes/review-queues.js';
import { scenarios } from './routes/scenarios.js';
import { suiteRuns } from './routes/suite-runs.js';
import { tags } from './routes/tags.js';
import { voiceBundles } from './routes/voice-bundles.js';
import { webhookEndpoints } from './routes/webhook-endpoints.js';
import { workspaces } from './routes/workspaces.js';

// Explicit annotations keep the emitted declaration small: without them TypeScript inlines the
// whole zod graph into `contract`'s type and refuses to serialise it (TS7056).
const c: ReturnType<typeof initContract> = initContract();

const areas: {
  auth: typeof auth;
  workspaces: typeof workspaces;
  apiKeys: typeof apiKeys;
  invitations: typeof invitations;
  metrics: typeof metrics;
  voiceBundles: typeof voiceBundles;
  callImportSchemas: typeof callImportSchemas;
  callImports: typeof callImports;
  evaluations: typeof evaluations;
  evaluatorResults: typeof evaluatorResults;
  tags: typeof tags;
  aiProviders: typeof aiProviders;
  integrations: typeof integrations;
  agents: typeof agents;
  scenarios: typeof scenarios;
  personas: typeof personas;
  evaluators: typeof evaluators;
  evaluatorSuites: typeof evaluatorSuites;
  suiteRuns: typeof suiteRuns;
  webhookEndpoints: typeof webhookEndpoints;
  productionCalls: typeof productionCalls;
  monitors: typeof monitors;
  reviewQueues: typeof reviewQueues;
  consistencyChecks: typeof consistencyChecks;
} = {
  auth,
  workspaces,
  apiKeys,
  invitations,
  metrics,
  voiceBundles,
  callImportSchemas,
  callImports,
  evaluations,
  evaluatorResults,
  tags,
  aiProviders,
  integrations,
  agents,
  scenarios,
  personas,
  evaluators,
  evaluatorSuites,
  suiteRuns,
  webhookEndpoints,
  productionCalls,
  monitors,
  reviewQueues,
  consistencyChecks,
};

const options = { baseHeaders: BaseHeadersSchema, commonResponses, strictStatusCodes: true } as const;

// A generic alias, not `typeof c.router<typeof areas, ...>` directly: the declaration bundler does
// not follow names used inside an instantiation expression and would drop `areas` and `options`.
type RouterOf<TAreas extends AppRouter, TOptions extends RouterOptions<''>> = ReturnType<
  typeof c.router<TAreas, '', TOptions>
>;
type ContractRouter = RouterOf<typeof areas, typeof options>;

/** The whole API. Route keys are the SDK's namespaces and method names. */
export const contract: ContractRouter = c.router(areas, options);

export type Contract = typeof contract;

export * from './common.js';
export * from './resources/agent.js';
export * from './resources/agent-connection.js';
export * from './resources/ai-provider.js';
export * from './resources/auth.js';
export * from './resources/call-import.js';
export * from './resources/call-import-row.js';
export * from './resources/call-import-schema.js';
export * from './resources/consistency-check.js';
export * from './resources/dispatch-diagnostics.js';
export * from './resources/evaluation.js';
export * from './resources/evaluator.js';
export * from './resources/evaluator-suite.js';
export * from './resources/integration.js';
export * from './resources/invitation.js';
export * from './resources/label.js';
export * from './resources/metric.js';
export * from './resources/metric-clusters.js';
export * from './resources/monitor.js';
export * from './resources/persona.js';
export * from './resources/production-call.js';
export * from './resources/review-queue.js';
export * from './resources/scenario.js';
export * from './resources/suite-run.js';
export * from './resources/suite-run-comparison.js';
export * from './resources/tag.js';
export * from './resources/voice-bundle.js';
export * from './resources/voice-metric.js';
export * from './resources/webhook-endpoint.js';
export * from './resources/webhook-event.js';
export * from './resources/workspace.js';
export * from './source-transcript.js';
