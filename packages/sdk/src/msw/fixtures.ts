import {
  AgentSchema,
  AIProviderSchema,
  AIProviderTestResultSchema,
  ApiKeyCreatedSchema,
  ApiKeySchema,
  AuthConfigSchema,
  CallImportResourceSchema,
  CallImportRowSchema,
  CallImportSchemaSchema,
  EvaluationRowSchema,
  EvaluationSchema,
  EvaluatorSchema,
  EvaluatorSuiteSchema,
  IntegrationSchema,
  InvitationCreatedSchema,
  InvitationPreviewSchema,
  InvitationSchema,
  MeSchema,
  MetricClustersReportSchema,
  MetricSchema,
  MonitorAlertSchema,
  MonitorSchema,
  PersonaSchema,
  ProductionCallSchema,
  ReviewItemSchema,
  ReviewQueueSchema,
  ScenarioSchema,
  SessionSchema,
  TagSchema,
  TranscribeResultSchema,
  UserSchema,
  type VoiceBundle,
  VoiceBundleSchema,
  voiceBundleMissingFields,
  WebhookDeliverySchema,
  WebhookEndpointSchema,
  WorkspaceSchema,
} from '@voice-eval/contract';
import type { z } from 'zod';
import {
  type Fixture,
  type Fixtures,
  MOCK_ORGANIZATION_ID,
  MOCK_USER_ID,
  MOCK_WORKSPACE_ID,
} from './fixture-types.js';
import { type Sequence, sample } from './sample.js';
import { createSimulationFixtures } from './simulation-fixtures.js';

// Curried so the schema fixes `S` before the defaults are checked (keeps their literal types).
const define =
  (seq: Sequence) =>
  <S extends z.ZodTypeAny>(schema: S) =>
  (defaults: (n: number) => Partial<z.input<S>>): Fixture<z.infer<S>, z.input<S>> =>
  (overrides = {}) => {
    const base = sample(schema, seq) as object;
    return schema.parse({ ...base, ...defaults(seq.next()), ...overrides });
  };

/** `missing_fields` is derived from the bundle, as the server does, whatever the overrides say. */
const withMissingFields =
  (make: Fixture<VoiceBundle>): Fixture<VoiceBundle> =>
  (overrides) => {
    const bundle = make(overrides);
    return { ...bundle, missing_fields: voiceBundleMissingFields(bundle) };
  };

const org = { organization_id: MOCK_ORGANIZATION_ID };
const scoped = { ...org, workspace_id: MOCK_WORKSPACE_ID };

/** Every fixture factory, bound to one sequence so a reset replays the same values. */
export const createFixtures = (seq: Sequence): Fixtures => {
  const fixture = define(seq);
  const user = fixture(UserSchema)(() => ({
    ...org,
    id: MOCK_USER_ID,
    email: 'ada@example.test',
    name: 'Ada Lovelace',
    first_name: 'Ada',
    last_name: 'Lovelace',
    role: 'OWNER',
    has_password: true,
  }));
  const workspace = fixture(WorkspaceSchema)((n) => ({
    ...org,
    name: `Workspace ${n}`,
    slug: `workspace-${n}`,
  }));
  const invitation = fixture(InvitationSchema)((n) => ({
    ...org,
    email: `invitee${n}@example.test`,
    role: 'MEMBER',
    status: 'pending',
    invited_by: MOCK_USER_ID,
  }));
  return {
    user,
    workspace,
    /** The organization's default workspace (fixed id). */
    defaultWorkspace: (overrides = {}) =>
      workspace({ id: MOCK_WORKSPACE_ID, name: 'Default', slug: 'default', is_default: true, ...overrides }),
    session: fixture(SessionSchema)((n) => ({
      access_token: `access-token-${n}`,
      refresh_token: `refresh-token-${n}`,
      token_type: 'Bearer',
      expires_in: 900,
      user: user(),
    })),
    authConfig: fixture(AuthConfigSchema)(() => ({
      signup_enabled: true,
      password_login_enabled: true,
      access_token_ttl_seconds: 900,
      api_key_headers: ['x-api-key', 'x-service-api-key'],
    })),
    me: fixture(MeSchema)(() => ({
      principal_type: 'user',
      user: user(),
      role: 'OWNER',
      organization: { id: MOCK_ORGANIZATION_ID, name: 'Acme', plan: 'free' },
      workspace: workspace({ id: MOCK_WORKSPACE_ID, name: 'Default', slug: 'default', is_default: true }),
    })),
    apiKey: fixture(ApiKeySchema)((n) => ({
      name: `API key ${n}`,
      prefix: `ve_live_${n}`,
      created_by: MOCK_USER_ID,
    })),
    apiKeyCreated: fixture(ApiKeyCreatedSchema)((n) => ({
      name: `API key ${n}`,
      key: `ve_live_${String(n).padStart(38, '0')}`,
      prefix: `ve_live_${n}`,
    })),
    invitation,
    invitationCreated: fixture(InvitationCreatedSchema)((n) => ({
      ...invitation(),
      token: `invitation-token-${n}`,
    })),
    invitationPreview: fixture(InvitationPreviewSchema)((n) => ({
      organization_id: MOCK_ORGANIZATION_ID,
      organization_name: 'Acme',
      email: `invitee${n}@example.test`,
      role: 'MEMBER',
      status: 'pending',
    })),
    metric: fixture(MetricSchema)((n) => ({
      ...scoped,
      name: `Metric ${n}`,
      description: 'Did the agent resolve the request?',
      metric_type: 'boolean',
      enabled: true,
      created_by: MOCK_USER_ID,
    })),
    voiceBundle: withMissingFields(
      fixture(VoiceBundleSchema)((n) => ({
        name: `Voice bundle ${n}`,
        bundle_type: 'stt_llm_tts',
        stt_provider: 'openai',
        stt_model: 'whisper-1',
        llm_provider: 'openai',
        llm_model: 'gpt-4o-mini',
        tts_provider: 'openai',
        tts_model: 'tts-1',
        is_active: true,
        created_by: MOCK_USER_ID,
      })),
    ),
    callImportSchema: fixture(CallImportSchemaSchema)((n) => ({
      ...scoped,
      name: `Schema ${n}`,
      parameters: [
        {
          id: seq.uuid(),
          name: 'conversation_id',
          type: 'conversation_id',
          description: '',
          is_required: true,
          ordering: 0,
        },
      ],
    })),
    callImport: fixture(CallImportResourceSchema)(() => ({
      ...scoped,
      provider: 'upload',
      original_filename: 'calls.csv',
      source_format: 'csv',
      status: 'completed',
    })),
    callImportRow: fixture(CallImportRowSchema)((n) => ({ conversation_id: `conversation-${n}` })),
    evaluation: fixture(EvaluationSchema)(() => ({
      ...scoped,
      status: 'pending',
      created_by: MOCK_USER_ID,
    })),
    evaluationRow: fixture(EvaluationRowSchema)((n) => ({
      conversation_id: `conversation-${n}`,
      status: 'completed',
    })),
    tag: fixture(TagSchema)((n) => ({ name: `Tag ${n}`, color: '#6b7280' })),
    aiProvider: fixture(AIProviderSchema)((n) => ({
      provider: 'openai',
      name: `OpenAI ${n}`,
      api_key: 'sk-...abcd',
      is_active: true,
      is_default: true,
      routing_mode: 'direct',
      effective_routing: 'direct',
      effective_gateway_interface: 'native_openai',
    })),
    aiProviderTestResult: fixture(AIProviderTestResultSchema)(() => ({
      ok: true,
      models: ['gpt-4o-mini'],
      latency_ms: 120,
    })),
    integration: fixture(IntegrationSchema)((n) => ({
      ...org,
      platform: 'vapi',
      name: `Vapi ${n}`,
      is_active: true,
      agent_id: null,
      ingest_url: null,
      last_received_at: null,
      last_polled_at: null,
      last_poll_error: null,
      has_api_key: false,
    })),
    agent: fixture(AgentSchema)((n) => ({
      ...scoped,
      name: `Agent ${n}`,
      call_type: 'inbound',
      call_medium: 'phone',
      phone_number: '+15555550100',
      connection: null,
      created_by: MOCK_USER_ID,
    })),
    scenario: fixture(ScenarioSchema)((n) => ({
      ...scoped,
      name: `Scenario ${n}`,
      created_by: MOCK_USER_ID,
    })),
    persona: fixture(PersonaSchema)((n) => ({
      name: `Persona ${n}`,
      gender: 'female',
      tts_provider: 'openai',
      tts_voice_id: 'alloy',
      is_custom: true,
      llm_temperature: 0.7,
      llm_max_tokens: 256,
      max_turns: 20,
    })),
    evaluator: fixture(EvaluatorSchema)((n) => ({
      ...org,
      evaluator_id: `EV-${n}`,
      name: `Evaluator ${n}`,
      created_by: MOCK_USER_ID,
    })),
    evaluatorSuite: fixture(EvaluatorSuiteSchema)((n) => ({
      ...org,
      name: `Suite ${n}`,
      agent_name: 'Agent',
      persona_name: 'Persona',
      is_active: true,
      schedule: null,
      schedule_enabled: false,
      next_run_at: null,
      created_by: MOCK_USER_ID,
    })),
    metricClustersReport: fixture(MetricClustersReportSchema)(() => ({
      status: 'completed',
      progress: { phase: 'done', completed_steps: 1, total_steps: 1 },
    })),
    transcribeResult: fixture(TranscribeResultSchema)(() => ({})),
    webhookEndpoint: fixture(WebhookEndpointSchema)((n) => ({
      url: `https://hooks.example.test/voice-eval/${n}`,
      description: '',
      events: ['evaluation.completed'],
      enabled: true,
      disabled_reason: null,
      disabled_at: null,
      failing_since: null,
    })),
    webhookDelivery: fixture(WebhookDeliverySchema)(() => ({
      event_type: 'ping',
      status: 'pending',
      next_attempt_at: null,
      delivered_at: null,
      error: null,
      attempts: [],
    })),
    productionCall: fixture(ProductionCallSchema)((n) => ({
      ...scoped,
      provider: 'custom',
      integration_id: null,
      external_call_id: `call-${n}`,
      started_at: null,
      ended_at: null,
      duration_ms: null,
      end_reason: null,
      turn_count: 0,
      events: ['submitted'],
      metadata: {},
      tags: [],
      recording_status: 'none',
      recording_error: null,
    })),
    monitor: fixture(MonitorSchema)((n) => ({
      workspace_id: MOCK_WORKSPACE_ID,
      name: `Monitor ${n}`,
      sample_rate: 1,
      rules: [],
      is_active: true,
      slack_configured: false,
      evaluation_id: null,
      calls_seen: 0,
      calls_sampled: 0,
    })),
    reviewQueue: fixture(ReviewQueueSchema)((n) => ({
      workspace_id: MOCK_WORKSPACE_ID,
      name: `Review queue ${n}`,
      strategy: 'random',
      assignees: [],
      lock_minutes: 15,
      status: 'open',
      counts: { total: 0, open: 0, claimed: 0, done: 0 },
      completed_at: null,
      created_by: 'ada@example.test',
    })),
    reviewItem: fixture(ReviewItemSchema)((n) => ({
      position: n,
      status: 'open',
      claimed_by: null,
      claim_expires_at: null,
      done_by: null,
      done_at: null,
    })),
    monitorAlert: fixture(MonitorAlertSchema)(() => ({
      rule_type: 'per_call',
      summary: 'A scored call failed.',
      observed: {},
      production_call_id: null,
      call_import_row_id: null,
      slack_status: 'none',
    })),
    ...createSimulationFixtures(fixture),
  };
};
