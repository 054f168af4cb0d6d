import { z } from 'zod';
import { Timestamp, Uuid } from '../common.js';
import { TranscriptSpeakerSchema } from './call-import-row.js';

/**
 * Platforms that push a live agent's finished calls to `POST /api/v1/ingest/{platform}/{integration_id}`,
 * each verified by its own signature scheme.
 */
export const INGEST_PLATFORMS = ['vapi', 'retell', 'elevenlabs', 'twilio'] as const;
export const IngestPlatformSchema = z.enum(INGEST_PLATFORMS);
export type IngestPlatform = z.infer<typeof IngestPlatformSchema>;

/**
 * Where a production call's recording is: `none` (the call came without one), `pending` (waiting
 * to be downloaded), `running` (being downloaded), `stored` (in our storage, on the call's row),
 * `failed` (every attempt failed; see `recording_error`).
 */
export const PRODUCTION_RECORDING_STATUSES = ['none', 'pending', 'running', 'stored', 'failed'] as const;
export const ProductionRecordingStatusSchema = z.enum(PRODUCTION_RECORDING_STATUSES);

/** Why a recording could not be downloaded or kept. */
export const PRODUCTION_RECORDING_ERROR_CODES = [
  'fetch_failed',
  'not_audio',
  'too_large',
  'no_credentials',
  'attempts_exhausted',
] as const;

export const ProductionRecordingErrorSchema = z.object({
  code: z.enum(PRODUCTION_RECORDING_ERROR_CODES),
  message: z.string(),
  at: Timestamp,
});

/** A provider-neutral metadata map: flat values only. */
const MetadataSchema = z.record(
  z.string().min(1).max(100),
  z.union([z.string().max(2000), z.number(), z.boolean(), z.null()]),
);

/**
 * A call a live agent had, received from its platform or submitted through the API. It lands as a
 * row of its agent's production call import (`call_import_id`, `call_import_row_id`), where its
 * transcript, recording, evaluations and clusters live like any imported call's.
 */
export const ProductionCallSchema = z.object({
  id: Uuid,
  organization_id: Uuid,
  workspace_id: Uuid,
  agent_id: Uuid,
  /** The platform the call came from (`vapi`, `retell`, `elevenlabs`, `twilio`), or what a submit named (`custom` by default). */
  provider: z.string(),
  /** The integration that delivered it or whose credentials fetch its recording; null for plain submits. */
  integration_id: Uuid.nullable(),
  /** The platform's id of the call; unique per organization and provider. */
  external_call_id: z.string(),
  call_import_id: Uuid,
  call_import_row_id: Uuid,
  started_at: Timestamp.nullable(),
  ended_at: Timestamp.nullable(),
  duration_ms: z.number().int().min(0).nullable(),
  /** The platform's reason, verbatim (`customer-ended-call`, `user_hangup`, ...). */
  end_reason: z.string().nullable(),
  /** Turns the call arrived with; 0 when its recording is to be transcribed. */
  turn_count: z.number().int().min(0),
  /** The platform events merged into this call, in arrival order (`call_ended`, `call_analyzed`, ...). */
  events: z.array(z.string()),
  metadata: MetadataSchema,
  tags: z.array(z.string()),
  recording_status: ProductionRecordingStatusSchema,
  recording_error: ProductionRecordingErrorSchema.nullable(),
  received_at: Timestamp,
  updated_at: Timestamp,
});
export type ProductionCall = z.infer<typeof ProductionCallSchema>;

/** A turn of a submitted transcript: who spoke, what, and when (milliseconds from the call's start). */
export const ProductionTurnSchema = z.object({
  role: TranscriptSpeakerSchema,
  text: z.string().max(20_000),
  start_ms: z.number().int().min(0).optional(),
  end_ms: z.number().int().min(0).optional(),
});

/** The longest call a submit describes: 24 hours. */
const MAX_CALL_MS = 86_400_000;

/** How `transcript` is written: our turns, or a platform's own transcript JSON as its webhook carries it. */
export const TRANSCRIPT_FORMATS = ['voice-eval', 'vapi', 'retell', 'elevenlabs'] as const;

/**
 * Submit a call of a live agent (LiveKit, Pipecat, home-grown, or a platform's call pulled by
 * hand). Idempotent per organization, provider and `external_call_id`: a repeat returns the
 * existing call and changes nothing.
 */
export const ProductionCallSubmitBodySchema = z
  .object({
    agent_id: Uuid,
    external_call_id: z.string().trim().min(1).max(200),
    provider: z
      .string()
      .trim()
      .toLowerCase()
      .regex(/^[a-z0-9][a-z0-9_.-]{0,63}$/, 'Expected a lower-case provider identifier')
      .default('custom'),
    /** An integration of the same platform whose credentials fetch the recording. */
    integration_id: Uuid.optional(),
    started_at: Timestamp.optional(),
    ended_at: Timestamp.optional(),
    duration_ms: z.number().int().min(0).max(MAX_CALL_MS).optional(),
    end_reason: z.string().trim().min(1).max(200).optional(),
    recording: z
      .object({
        /** An http(s) URL, fetched through the server's SSRF-safe fetch right away. */
        url: z
          .string()
          .url()
          .max(4096)
          .refine((url) => /^https?:\/\//i.test(url), 'Expected an http or https URL'),
        /** Which channel of a two-channel recording is the agent (stored with the agent on the left). */
        agent_channel: z.union([z.literal(0), z.literal(1)]).default(0),
      })
      .optional(),
    /**
     * The turns (`transcript_format: voice-eval`, the default), or the platform's transcript JSON as
     * its webhook carries it: Vapi `artifact.messages`, Retell `transcript_object`, ElevenLabs
     * `data.transcript`. Without it the recording is transcribed.
     */
    transcript: z.unknown().optional(),
    transcript_format: z.enum(TRANSCRIPT_FORMATS).default('voice-eval'),
    metadata: MetadataSchema.refine((m) => Object.keys(m).length <= 50, 'At most 50 keys').optional(),
    tags: z.array(z.string().trim().min(1).max(100)).max(20).optional(),
    /**
     * How the agent's monitors treat the call: `default` follows each monitor's sample rate,
     * `force` has every monitor judge it, `skip` has none judge it (it still takes its number).
     */
    sampling: z.enum(['default', 'force', 'skip']).default('default'),
  })
  .superRefine((body, ctx) => {
    if (body.started_at && body.ended_at && Date.parse(body.ended_at) < Date.parse(body.started_at)) {
      ctx.addIssue({ code: 'custom', path: ['ended_at'], message: 'Must not be before started_at' });
    }
    if (
      body.started_at &&
      body.ended_at &&
      Date.parse(body.ended_at) - Date.parse(body.started_at) > MAX_CALL_MS
    ) {
      ctx.addIssue({ code: 'custom', path: ['ended_at'], message: 'A call lasts at most 24 hours' });
    }
    if (body.transcript_format === 'voice-eval' && body.transcript !== undefined) {
      const turns = z.array(ProductionTurnSchema).max(5000).safeParse(body.transcript);
      if (!turns.success) {
        for (const issue of turns.error.issues)
          ctx.addIssue({ ...issue, path: ['transcript', ...issue.path] } as z.IssueData);
      }
    }
  });
export type ProductionCallSubmitBody = z.input<typeof ProductionCallSubmitBodySchema>;

/** A submit's answer: the call, and whether it already existed (then nothing changed). */
export const ProductionCallSubmitResultSchema = z.object({
  production_call: ProductionCallSchema,
  deduplicated: z.boolean(),
  /** Whether one of the agent's active monitors will judge the call (false when it has none). */
  sampled: z.boolean(),
});
export type ProductionCallSubmitResult = z.infer<typeof ProductionCallSubmitResultSchema>;

export const ProductionCallListQuerySchema = z.object({
  agent_id: Uuid.optional(),
  provider: z.string().max(64).optional(),
  recording_status: ProductionRecordingStatusSchema.optional(),
  /** Received at or after this time. */
  received_after: Timestamp.optional(),
  /** Received before this time. */
  received_before: Timestamp.optional(),
});

/**
 * What an ingest endpoint answers a platform: the call the delivery created or merged into, or why
 * the event was ignored (an event type that carries no finished call, such as Vapi's `status-update`).
 */
export const IngestReceiptSchema = z.object({
  received: z.literal(true),
  production_call_id: Uuid.nullable(),
  /** The delivery repeated one already merged: nothing changed. */
  deduplicated: z.boolean(),
  ignored: z.string().nullable(),
});
export type IngestReceipt = z.infer<typeof IngestReceiptSchema>;
