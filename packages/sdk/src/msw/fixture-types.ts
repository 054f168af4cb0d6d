import type {
  Agent,
  AgentTestResult,
  AIProvider,
  AIProviderTestResult,
  ApiKey,
  ApiKeyCreated,
  AuthConfig,
  CallImport,
  CallImportRow,
  CallImportSchema,
  Evaluation,
  EvaluationRow,
  EvaluationRowInput,
  Evaluator,
  EvaluatorSuite,
  Integration,
  Invitation,
  InvitationCreated,
  InvitationPreview,
  Me,
  Metric,
  MetricClustersReport,
  Monitor,
  MonitorAlert,
  Persona,
  ProductionCall,
  ReviewItem,
  ReviewQueue,
  Scenario,
  Session,
  SuiteRun,
  SuiteRunCall,
  SuiteRunComparison,
  Tag,
  TranscribeResult,
  User,
  VoiceBundle,
  WebhookDelivery,
  WebhookEndpoint,
  Workspace,
} from '@voice-eval/contract';
import { uuidOf } from './sample.js';

/** Ids every fixture shares unless overridden: one organization, its default workspace and owner. */
export const MOCK_ORGANIZATION_ID = uuidOf(1, '1');
export const MOCK_WORKSPACE_ID = uuidOf(1, '2');
export const MOCK_USER_ID = uuidOf(1, '3');

/**
 * A factory: deterministic defaults, then `overrides`, validated by the resource's zod schema.
 * Overrides are what the schema reads (`I`), so a field with a default (a result's `evidence`) may
 * be left out.
 */
export type Fixture<T, I = T> = (overrides?: Partial<I>) => T;

/** The fixture factories of a mock set: `fixtures.metric({ name: 'Greeting' })`. */
export interface Fixtures {
  user: Fixture<User>;
  workspace: Fixture<Workspace>;
  /** The organization's default workspace (fixed id `MOCK_WORKSPACE_ID`). */
  defaultWorkspace: Fixture<Workspace>;
  session: Fixture<Session>;
  authConfig: Fixture<AuthConfig>;
  me: Fixture<Me>;
  apiKey: Fixture<ApiKey>;
  apiKeyCreated: Fixture<ApiKeyCreated>;
  invitation: Fixture<Invitation>;
  invitationCreated: Fixture<InvitationCreated>;
  invitationPreview: Fixture<InvitationPreview>;
  metric: Fixture<Metric>;
  voiceBundle: Fixture<VoiceBundle>;
  callImportSchema: Fixture<CallImportSchema>;
  callImport: Fixture<CallImport>;
  callImportRow: Fixture<CallImportRow>;
  evaluation: Fixture<Evaluation>;
  evaluationRow: Fixture<EvaluationRow, EvaluationRowInput>;
  tag: Fixture<Tag>;
  aiProvider: Fixture<AIProvider>;
  aiProviderTestResult: Fixture<AIProviderTestResult>;
  integration: Fixture<Integration>;
  agent: Fixture<Agent>;
  agentTestResult: Fixture<AgentTestResult>;
  scenario: Fixture<Scenario>;
  persona: Fixture<Persona>;
  evaluator: Fixture<Evaluator>;
  evaluatorSuite: Fixture<EvaluatorSuite>;
  suiteRun: Fixture<SuiteRun>;
  suiteRunCall: Fixture<SuiteRunCall>;
  suiteRunComparison: Fixture<SuiteRunComparison>;
  metricClustersReport: Fixture<MetricClustersReport>;
  transcribeResult: Fixture<TranscribeResult>;
  webhookEndpoint: Fixture<WebhookEndpoint>;
  productionCall: Fixture<ProductionCall>;
  monitor: Fixture<Monitor>;
  monitorAlert: Fixture<MonitorAlert>;
  reviewQueue: Fixture<ReviewQueue>;
  reviewItem: Fixture<ReviewItem>;
  webhookDelivery: Fixture<WebhookDelivery>;
}
