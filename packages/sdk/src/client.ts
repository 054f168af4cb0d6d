import { ApiClient } from './core/api-client.js';
import type { ClientOptions } from './core/options.js';
import { Agents } from './resources/agents.js';
import { AiProviders } from './resources/ai-providers.js';
import { ApiKeys } from './resources/api-keys.js';
import { Auth } from './resources/auth.js';
import { CallImportSchemas } from './resources/call-import-schemas.js';
import { CallImports } from './resources/call-imports.js';
import { ConsistencyChecks } from './resources/consistency-checks.js';
import { Evaluations } from './resources/evaluations.js';
import { EvaluatorResults } from './resources/evaluator-results.js';
import { EvaluatorSuites } from './resources/evaluator-suites.js';
import { Evaluators } from './resources/evaluators.js';
import { Integrations } from './resources/integrations.js';
import { Invitations } from './resources/invitations.js';
import { Metrics } from './resources/metrics.js';
import { Monitors } from './resources/monitors.js';
import { Personas } from './resources/personas.js';
import { ProductionCalls } from './resources/production-calls.js';
import { ReviewQueues } from './resources/review-queues.js';
import { Scenarios } from './resources/scenarios.js';
import { SuiteRuns } from './resources/suite-runs.js';
import { Tags } from './resources/tags.js';
import { VoiceBundles } from './resources/voice-bundles.js';
import { WebhookEndpoints } from './resources/webhook-endpoints.js';
import { Workspaces } from './resources/workspaces.js';

/** Carries a shared session from `withOptions` into the copy's constructor. */
const SHARED_AUTH = Symbol('voice-eval.sharedAuth');

type InternalOptions = ClientOptions & { [SHARED_AUTH]?: ApiClient['_auth'] };

/** Keys of `ClientOptions` that carry credentials: changing any starts a new session. */
const CREDENTIAL_KEYS = [
  'apiKey',
  'accessToken',
  'refreshToken',
  'email',
  'password',
  'organizationId',
  'onTokens',
] as const;

/**
 * The voice-eval API client. One namespace per contract area (`client.metrics.create(...)`),
 * typed from the contract, with retries, idempotency keys, token refresh and typed errors.
 *
 * @example
 * const client = new VoiceEval({ baseUrl: 'https://voice-eval.example.com', apiKey: process.env.VOICE_EVAL_API_KEY });
 * for await (const metric of client.metrics.list({ page_size: 50 })) console.log(metric.name);
 */
export class VoiceEval extends ApiClient {
  readonly auth: Auth = new Auth(this);
  readonly workspaces: Workspaces = new Workspaces(this);
  readonly apiKeys: ApiKeys = new ApiKeys(this);
  readonly invitations: Invitations = new Invitations(this);
  readonly metrics: Metrics = new Metrics(this);
  readonly voiceBundles: VoiceBundles = new VoiceBundles(this);
  readonly callImportSchemas: CallImportSchemas = new CallImportSchemas(this);
  readonly callImports: CallImports = new CallImports(this);
  readonly evaluations: Evaluations = new Evaluations(this);
  readonly evaluatorResults: EvaluatorResults = new EvaluatorResults(this);
  readonly tags: Tags = new Tags(this);
  readonly aiProviders: AiProviders = new AiProviders(this);
  readonly integrations: Integrations = new Integrations(this);
  readonly agents: Agents = new Agents(this);
  readonly scenarios: Scenarios = new Scenarios(this);
  readonly personas: Personas = new Personas(this);
  readonly evaluators: Evaluators = new Evaluators(this);
  readonly evaluatorSuites: EvaluatorSuites = new EvaluatorSuites(this);
  readonly suiteRuns: SuiteRuns = new SuiteRuns(this);
  readonly webhookEndpoints: WebhookEndpoints = new WebhookEndpoints(this);
  readonly productionCalls: ProductionCalls = new ProductionCalls(this);
  readonly monitors: Monitors = new Monitors(this);
  readonly reviewQueues: ReviewQueues = new ReviewQueues(this);
  readonly consistencyChecks: ConsistencyChecks = new ConsistencyChecks(this);

  constructor(options: ClientOptions = {}) {
    const { [SHARED_AUTH]: sharedAuth, ...rest } = options as InternalOptions;
    super(rest, sharedAuth);
  }

  /** The workspace requests act in; undefined means the organization's default. */
  get workspaceId(): string | undefined {
    return this._options.workspaceId;
  }

  /**
   * A copy with some options changed. It shares this client's session (and its refreshes)
   * unless credentials change.
   */
  withOptions(options: Partial<ClientOptions>): VoiceEval {
    const newCredentials = CREDENTIAL_KEYS.some((key) => key in options);
    const merged = { ...this._options, ...options };
    const copy: InternalOptions = newCredentials ? merged : { ...merged, [SHARED_AUTH]: this._auth };
    return new VoiceEval(copy);
  }

  /** A copy acting in workspace `workspaceId` (`X-Workspace-Id`), sharing this client's session. */
  withWorkspace(workspaceId: string): VoiceEval {
    return this.withOptions({ workspaceId });
  }
}
