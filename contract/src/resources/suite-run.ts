import { z } from 'zod';
import { Timestamp, Uuid } from '../common.js';
import { AGENT_ERROR_CODES } from './agent-connection.js';

/**
 * Lifecycle of a suite run: `pending` (calls queued) -> `running` (calls in progress) ->
 * `evaluating` (every call ended; the suite's metrics score the transcripts) -> `completed`.
 * `failed` when no call could be held or scoring could not run; `cancelled` from any state
 * before `completed`.
 */
export const SUITE_RUN_STATUSES = [
  'pending',
  'running',
  'evaluating',
  'completed',
  'failed',
  'cancelled',
] as const;
export const SuiteRunStatusSchema = z.enum(SUITE_RUN_STATUSES);
export type SuiteRunStatus = z.infer<typeof SuiteRunStatusSchema>;

/**
 * How a run's calls reach the agent, from its connection when the run started: `text`
 * (`openai_chat`, `webhook`) or `voice` (`twilio_media_stream`: audio both ways, Twilio's wire format).
 */
export const SUITE_RUN_CHANNELS = ['text', 'voice'] as const;

/**
 * Objective measures of a voice call, from its audio timeline (milliseconds from the start of the
 * stream). Latency runs from the end of the caller's speech to the agent's first audio after it.
 * An interruption is one side starting to speak while the other is speaking; the agent yields to a
 * barge-in when its audio stops (or it sends `clear`) within 1 s of the caller starting. Ratios
 * are shares of the call's duration.
 */
export const VoiceMeasuresSchema = z.object({
  duration_ms: z.number().int().min(0),
  agent_latency_p50_ms: z.number().int().min(0).nullable(),
  agent_latency_p95_ms: z.number().int().min(0).nullable(),
  /** From the start of the stream to the agent's first audio. */
  time_to_first_word_ms: z.number().int().min(0).nullable(),
  agent_interruptions: z.number().int().min(0),
  caller_interruptions: z.number().int().min(0),
  /** Barge-ins by the caller that the agent yielded to; null when the caller never barged in. */
  yielded_on_barge_in: z.boolean().nullable(),
  clear_messages: z.number().int().min(0),
  overlap_ratio: z.number().min(0).max(1),
  silence_ratio: z.number().min(0).max(1),
  /** The agent's share of the time anyone spoke. */
  agent_talk_ratio: z.number().min(0).max(1),
});
export type VoiceMeasures = z.infer<typeof VoiceMeasuresSchema>;

const Ms = z.number().int().min(0);

/**
 * What a voice call's measures are made of, each at `at_ms` on the call's timeline (the
 * recording's, from its start), from the same speech timeline: a `latency_gap` from the end of the
 * caller's speech to the agent's first audio after it (the values of the latency percentiles); an
 * `interruption` when one side starts speaking over the other (`overlap_ms` is how long both
 * spoke), which for the caller is a barge-in, with whether the agent `yielded`; and a `silence`
 * when nobody spoke for at least 2 seconds.
 */
export const VoiceEventSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('latency_gap'), at_ms: Ms, duration_ms: Ms }),
  z.object({
    kind: z.literal('interruption'),
    at_ms: Ms,
    by: z.enum(['agent', 'caller']),
    overlap_ms: Ms,
    /** The caller's barge-ins: whether the agent yielded within 1 s; null when the agent interrupted. */
    yielded: z.boolean().nullable(),
  }),
  z.object({ kind: z.literal('silence'), at_ms: Ms, duration_ms: Ms }),
]);
export type VoiceEvent = z.infer<typeof VoiceEventSchema>;

/** What started a run: an API call (SDK, CLI) or the suite's schedule. */
export const SUITE_RUN_TRIGGERS = ['api', 'schedule'] as const;

/** Lifecycle of one simulated call: `pending` -> `running` -> `completed` | `failed`; `cancelled` from either. */
export const SUITE_RUN_CALL_STATUSES = ['pending', 'running', 'completed', 'failed', 'cancelled'] as const;
export const SuiteRunCallStatusSchema = z.enum(SUITE_RUN_CALL_STATUSES);
export type SuiteRunCallStatus = z.infer<typeof SuiteRunCallStatusSchema>;

/**
 * How a completed call ended: the agent hung up (`end_call` from the agent), the simulated caller
 * did, or the persona's `max_turns` was reached (not an error).
 */
export const SUITE_RUN_CALL_END_REASONS = ['agent_ended', 'caller_ended', 'max_turns_reached'] as const;

/** Why a call failed: the agent's errors, the persona model's, a cancel, or leases lost too often. */
export const SUITE_RUN_CALL_ERROR_CODES = [
  ...AGENT_ERROR_CODES,
  'persona_model_error',
  /** Text to speech of the caller or speech to text of the agent failed (voice channel). */
  'speech_provider_error',
  'cancelled',
  'attempts_exhausted',
] as const;

/** A typed call error: an expected outcome recorded on the call, not an HTTP error. */
export const SuiteRunCallErrorSchema = z.object({
  code: z.enum(SUITE_RUN_CALL_ERROR_CODES),
  message: z.string(),
  at: Timestamp,
});
export type SuiteRunCallError = z.infer<typeof SuiteRunCallErrorSchema>;

const Count = z.number().int().min(0);
const Rate = z.number().min(0).max(1);

/** One metric over a run's scored calls. `pass_rate` is null when no call was scored on it. */
export const SuiteRunMetricSummarySchema = z.object({
  metric_id: Uuid,
  metric_name: z.string(),
  scored: Count,
  passed: Count,
  flagged: Count,
  pass_rate: Rate.nullable(),
});
export type SuiteRunMetricSummary = z.infer<typeof SuiteRunMetricSummarySchema>;

/** One persona x scenario combination over a run. A call passes when none of its results is flagged. */
export const SuiteRunCombinationSummarySchema = z.object({
  combination_id: Uuid,
  persona_id: Uuid,
  persona_name: z.string(),
  scenario_id: Uuid,
  scenario_name: z.string(),
  calls: Count,
  calls_completed: Count,
  calls_failed: Count,
  /** Calls scored with at least one flagged result. */
  flagged_calls: Count,
  pass_rate: Rate.nullable(),
});
export type SuiteRunCombinationSummary = z.infer<typeof SuiteRunCombinationSummarySchema>;

/** A run of an evaluator suite: simulated calls to the agent, scored with the suite's metrics. */
export const SuiteRunSchema = z.object({
  id: Uuid,
  organization_id: Uuid,
  workspace_id: Uuid,
  suite_id: Uuid,
  suite_name: z.string(),
  agent_id: Uuid,
  status: SuiteRunStatusSchema,
  trigger: z.enum(SUITE_RUN_TRIGGERS),
  channel: z.enum(SUITE_RUN_CHANNELS),
  runs_per_combination: z.number().int().min(1),
  /** The combinations run, in the order their calls were queued. */
  combination_ids: z.array(Uuid),
  /** The run `compare` uses by default; null: the previous completed run of the suite. */
  baseline_run_id: Uuid.nullable(),
  calls_total: Count,
  calls_pending: Count,
  calls_running: Count,
  calls_completed: Count,
  calls_failed: Count,
  calls_cancelled: Count,
  /** The import (`source_format: simulation`) whose rows hold the calls' transcripts. */
  call_import_id: Uuid,
  /** The evaluation scoring the calls; null until every call has ended. */
  evaluation_id: Uuid.nullable(),
  /** Share of scored calls with no flagged result; null until scored. */
  pass_rate: Rate.nullable(),
  metric_summary: z.array(SuiteRunMetricSummarySchema),
  combination_summary: z.array(SuiteRunCombinationSummarySchema),
  /**
   * Voice runs: each numeric voice measure's mean over the completed calls that have it, keyed by
   * the measure's name, and `yielded_on_barge_in` as the share of calls with a barge-in where the
   * agent yielded (null for text runs).
   */
  voice_summary: z.record(z.string(), z.number()).nullable(),
  error_message: z.string().nullable(),
  started_at: Timestamp.nullable(),
  finished_at: Timestamp.nullable(),
  created_at: Timestamp,
  updated_at: Timestamp,
  created_by: z.string(),
  /**
   * The run's page in the console (`<public URL>/console/runs/<id>`); null when the server has no
   * public URL configured or does not serve the console (and from servers older than the field).
   */
  console_url: z.string().nullable().default(null),
});
export type SuiteRun = z.infer<typeof SuiteRunSchema>;

/**
 * Start a run (all fields optional). Without `combination_ids` or `calls`, every combination runs.
 * `calls` takes the next N combinations round-robin from the suite's `round_robin_index`, which
 * advances by N; `combination_ids` picks a subset instead (not both). Each chosen combination is
 * called `runs_per_combination` times (default: the suite's `default_runs_per_combination`).
 */
export const SuiteRunCreateBodySchema = z
  .object({
    runs_per_combination: z.number().int().min(1).max(100).optional(),
    combination_ids: z.array(Uuid).min(1).max(1000).optional(),
    calls: z.number().int().min(1).max(1000).optional(),
    baseline_run_id: Uuid.optional(),
  })
  .strict()
  .superRefine((body, ctx) => {
    if (body.calls !== undefined && body.combination_ids !== undefined) {
      ctx.addIssue({ code: 'custom', path: ['calls'], message: 'Give calls or combination_ids, not both' });
    }
  });
export type SuiteRunCreateBody = z.input<typeof SuiteRunCreateBodySchema>;

export const SuiteRunListQuerySchema = z.object({
  suite_id: Uuid.optional(),
  agent_id: Uuid.optional(),
  status: SuiteRunStatusSchema.optional(),
});

/** Agent latency of a call, from the end of a caller turn to the agent's answer, in milliseconds. */
export const AgentLatencySchema = z.object({ p50_ms: Count, p95_ms: Count, max_ms: Count });

/** One simulated call of a run. Its transcript is the `call_import_row_id` row of the run's import. */
export const SuiteRunCallSchema = z.object({
  id: Uuid,
  run_id: Uuid,
  combination_id: Uuid,
  persona_id: Uuid,
  scenario_id: Uuid,
  /** 1-based repetition of the combination within the run. */
  repetition: z.number().int().min(1),
  conversation_id: z.string(),
  call_import_row_id: Uuid,
  status: SuiteRunCallStatusSchema,
  end_reason: z.enum(SUITE_RUN_CALL_END_REASONS).nullable(),
  error: SuiteRunCallErrorSchema.nullable(),
  /** Seed of the conversation: sent to the persona model and the agent, so a call can be replayed. */
  seed: z.number().int().min(0),
  /** Turns spoken, agent's and caller's. */
  turns: Count,
  agent_latency: AgentLatencySchema.nullable(),
  /** Voice calls: the objective measures of the call (null for text calls and failed ones). */
  voice_measures: VoiceMeasuresSchema.nullable(),
  /**
   * Voice calls: the events the measures count, in time order (null for text calls, failed ones,
   * and calls made before events were kept).
   */
  voice_events: z.array(VoiceEventSchema).nullable(),
  attempts: Count,
  started_at: Timestamp.nullable(),
  completed_at: Timestamp.nullable(),
});
export type SuiteRunCall = z.infer<typeof SuiteRunCallSchema>;

/** A run's calls: by status, and by the persona or scenario of their combination. */
export const SuiteRunCallListQuerySchema = z.object({
  status: SuiteRunCallStatusSchema.optional(),
  persona_id: Uuid.optional(),
  scenario_id: Uuid.optional(),
});
