/**
 * The fixed parts of the OpenAPI document: tags, security schemes, shared headers, parameters
 * and error responses. `openapi.ts` assembles them with the operations of the contract.
 */

/** Whether an area's data lives in a workspace (picked with `X-Workspace-Id`) or in the organization. */
export type AreaScope = 'workspace' | 'organization';

/** One area of the contract (a top-level router key): its tag and where its data lives. */
export type Area = { tag: string; description: string; scope: AreaScope };

/** The areas of the contract, in the order of the document's tags. */
export const AREAS: Record<string, Area> = {
  auth: {
    tag: 'Auth',
    description:
      'Sessions (signup, login, refresh, logout), the caller, API keys and organization switching.',
    scope: 'workspace',
  },
  workspaces: {
    tag: 'Workspaces',
    description: "Partitions of an organization's data.",
    scope: 'organization',
  },
  apiKeys: { tag: 'API keys', description: 'Organization API keys: list and revoke.', scope: 'organization' },
  invitations: {
    tag: 'Invitations',
    description: 'Invitations of people into the organization, and their acceptance.',
    scope: 'organization',
  },
  metrics: {
    tag: 'Metrics',
    description: 'Scoring definitions: categories with sub-metrics, drafts, LLM-assisted authoring.',
    scope: 'workspace',
  },
  voiceBundles: {
    tag: 'Voice bundles',
    description: 'Speech-to-text, LLM and text-to-speech configurations of voice agents.',
    scope: 'workspace',
  },
  callImportSchemas: {
    tag: 'Call-import schemas',
    description: 'The columns of call imports: conversation id, transcript, recording, metadata.',
    scope: 'workspace',
  },
  callImports: {
    tag: 'Call imports',
    description: 'Batches of recorded calls: upload, rows, transcription and diarisation, dispatch.',
    scope: 'workspace',
  },
  evaluations: {
    tag: 'Evaluations',
    description: "The scoring of a call import's rows with metrics by an LLM judge.",
    scope: 'workspace',
  },
  evaluatorResults: {
    tag: 'Evaluator results',
    description: 'Root-cause clusters of flagged evaluation rows, and failure policies.',
    scope: 'workspace',
  },
  tags: { tag: 'Tags', description: 'Labels for call imports.', scope: 'workspace' },
  aiProviders: {
    tag: 'AI providers',
    description: "The organization's LLM and speech-to-text provider credentials.",
    scope: 'organization',
  },
  integrations: {
    tag: 'Integrations',
    description: 'Connections to voice-agent and telephony platforms.',
    scope: 'organization',
  },
  agents: {
    tag: 'Agents',
    description: 'Voice agents under test, and how simulated calls reach them.',
    scope: 'workspace',
  },
  scenarios: { tag: 'Scenarios', description: 'What a simulated caller wants.', scope: 'workspace' },
  personas: {
    tag: 'Personas',
    description: 'Who a simulated caller is: voice, behaviour, background noise.',
    scope: 'workspace',
  },
  evaluators: {
    tag: 'Evaluators',
    description: 'An agent, a scenario and a persona, scored with metrics.',
    scope: 'workspace',
  },
  evaluatorSuites: {
    tag: 'Evaluator suites',
    description: 'Groups of persona x scenario combinations for one agent.',
    scope: 'workspace',
  },
  suiteRuns: {
    tag: 'Suite runs',
    description: 'Simulated calls of a suite to its agent, scored and compared with a baseline run.',
    scope: 'workspace',
  },
  productionCalls: {
    tag: 'Production calls',
    description:
      "A live agent's calls, pushed by its platform (Vapi, Retell, ElevenLabs, Twilio) or submitted, landing as rows of the agent's production call import.",
    scope: 'workspace',
  },
  monitors: {
    tag: 'Monitors',
    description:
      "An agent's production calls scored on arrival (an exact sampled share) and alert rules over the scores, with their alert history.",
    scope: 'workspace',
  },
  reviewQueues: {
    tag: 'Review queues',
    description:
      'Sampled calls for people to label on metrics, claimed one at a time with a lock, measuring the judge against them.',
    scope: 'workspace',
  },
  consistencyChecks: {
    tag: 'Consistency checks',
    description:
      "A metric's judge run several times on the same calls: how often its verdict flips, so compare can tell its noise from a change.",
    scope: 'workspace',
  },
  webhookEndpoints: {
    tag: 'Webhook endpoints',
    description:
      'Signed event notifications (Standard Webhooks) to URLs of the organization, with a delivery log.',
    scope: 'organization',
  },
};

export const SECURITY_SCHEMES = {
  bearerAuth: {
    type: 'http',
    scheme: 'bearer',
    bearerFormat: 'JWT',
    description: 'An access token from signup, login, refresh or switch-org.',
  },
  apiKey: { type: 'apiKey', in: 'header', name: 'X-API-Key', description: 'An organization API key.' },
  serviceApiKey: {
    type: 'apiKey',
    in: 'header',
    name: 'X-SERVICE-API-KEY',
    description: 'An organization API key, under the header name some platforms send.',
  },
} as const;

const text = { type: 'string' } as const;

export const HEADERS = {
  RequestId: {
    description: 'The id of the request: the `X-Request-Id` sent (if valid), else a new UUID.',
    required: true,
    schema: text,
  },
  RetryAfter: {
    description: 'Seconds to wait before retrying.',
    required: true,
    schema: { type: 'integer' },
  },
  IdempotentReplayed: {
    description:
      '`true` when the response is the stored result of an earlier request with this `Idempotency-Key`.',
    schema: { type: 'string', enum: ['true'] },
  },
  Deprecation: { description: 'When the operation was deprecated (RFC 9745).', required: true, schema: text },
  Link: { description: 'The successor operation (`rel="successor-version"`).', required: true, schema: text },
} as const;

export const PARAMETERS = {
  WorkspaceId: {
    name: 'X-Workspace-Id',
    in: 'header',
    description: "The workspace to act in; the organization's default workspace when absent.",
    schema: { type: 'string', format: 'uuid' },
  },
  IdempotencyKey: {
    name: 'Idempotency-Key',
    in: 'header',
    description:
      'Makes a retry safe: the first response (below 500) is stored for 24 hours and replayed for a retry ' +
      'with the same key and body; the same key with another body is 422, a retry while the first runs 409.',
    schema: { type: 'string', maxLength: 255 },
  },
} as const;

/** The error responses, by status: problem details, with the headers every response carries. */
export const ERROR_RESPONSES: Record<number, { name: string; description: string }> = {
  400: { name: 'BadRequest', description: 'The body is not valid JSON.' },
  401: { name: 'Unauthenticated', description: 'Credentials are missing, invalid, expired or revoked.' },
  403: { name: 'Forbidden', description: "The caller's role or kind of credential does not allow this." },
  404: { name: 'NotFound', description: 'No such resource in the organization and workspace.' },
  409: {
    name: 'Conflict',
    description: 'A conflict with the current state (a duplicate, or a resource in use).',
  },
  413: { name: 'PayloadTooLarge', description: 'The body or an uploaded file is larger than the limit.' },
  415: { name: 'UnsupportedMediaType', description: 'The charset, encoding or file type is not supported.' },
  416: {
    name: 'RangeNotSatisfiable',
    description: 'The `Range` is past the end of the content or malformed; `Content-Range` gives its size.',
  },
  422: {
    name: 'UnprocessableEntity',
    description: 'The request failed validation or broke a rule; see `errors`.',
  },
  429: { name: 'TooManyRequests', description: 'Too many requests; retry after `Retry-After` seconds.' },
  500: {
    name: 'InternalServerError',
    description: 'An unexpected error; quote the request id when reporting it.',
  },
  502: { name: 'BadGateway', description: 'The AI provider failed (error, timeout or unusable reply).' },
};

/** `components.responses`: one problem response per error status. */
export const errorResponseComponents = () =>
  Object.fromEntries(
    Object.entries(ERROR_RESPONSES).map(([status, { name, description }]) => [
      name,
      {
        description,
        headers: {
          'X-Request-Id': { $ref: '#/components/headers/RequestId' },
          ...(status === '429' ? { 'Retry-After': { $ref: '#/components/headers/RetryAfter' } } : {}),
          ...(status === '416'
            ? {
                'Content-Range': {
                  description: 'The content size: `bytes */<size>`.',
                  schema: { type: 'string' },
                },
              }
            : {}),
        },
        content: { 'application/problem+json': { schema: { $ref: '#/components/schemas/Problem' } } },
      },
    ]),
  );
