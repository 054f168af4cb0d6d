import { z } from 'zod';
import { Timestamp, Uuid } from '../common.js';
import { VoiceEventSchema, VoiceMeasuresSchema } from './suite-run.js';

/**
 * Diarisation state of a row: null until transcription is asked for, then
 * `pending` -> `running` -> `completed` | `failed`. Cancelling makes a row `failed` (code `cancelled`).
 */
export const DIARISED_TRANSCRIPT_STATUSES = ['pending', 'running', 'completed', 'failed'] as const;
export const DiarisedTranscriptStatusSchema = z.enum(DIARISED_TRANSCRIPT_STATUSES);
export type DiarisedTranscriptStatus = z.infer<typeof DiarisedTranscriptStatusSchema>;

export const TRANSCRIPT_SPEAKERS = ['agent', 'user'] as const;
export const TranscriptSpeakerSchema = z.enum(TRANSCRIPT_SPEAKERS);

/** One diarised turn; offsets are milliseconds from the start of the recording, when known. */
export const TranscriptTurnSchema = z.object({
  speaker: TranscriptSpeakerSchema,
  text: z.string(),
  start_ms: z.number().int().min(0).optional(),
  end_ms: z.number().int().min(0).optional(),
});
export type TranscriptTurn = z.infer<typeof TranscriptTurnSchema>;

/** Why diarising a row failed; `attempts_exhausted` means its lease expired too many times. */
export const DIARISATION_ERROR_CODES = [
  'provider_audio_unsupported',
  'provider_error',
  'audio_unavailable',
  'timeout',
  'cancelled',
  'invalid_provider_response',
  'attempts_exhausted',
] as const;

/** A typed row error: an expected outcome recorded on the row, not an HTTP error. */
export const DiarisationErrorSchema = z.object({
  code: z.enum(DIARISATION_ERROR_CODES),
  message: z.string(),
  provider: z.string().nullable(),
  model: z.string().nullable(),
  at: Timestamp,
});
export type DiarisationError = z.infer<typeof DiarisationErrorSchema>;

/** One call of an import, identified by its `conversation_id`. */
export const CallImportRowSchema = z.object({
  id: Uuid,
  call_import_id: Uuid,
  conversation_id: z.string(),
  /** 1-based position in the source (data rows of a manifest, or the order of uploaded files). */
  source_row: z.number().int().min(1),
  /** Values keyed by schema parameter name (and extra-column keys); null for empty cells. */
  parameters: z.record(z.string(), z.string().nullable()),
  recording_url: z.string().nullable(),
  recording_storage_key: z.string().nullable(),
  has_recording: z.boolean(),
  /** A transcript carried by the source file, as plain text. */
  source_transcript: z.string().nullable(),
  diarised_transcript: z.array(TranscriptTurnSchema).nullable(),
  diarised_transcript_status: DiarisedTranscriptStatusSchema.nullable(),
  diarised_transcript_error: DiarisationErrorSchema.nullable(),
  /**
   * A two-channel recording diarised by channel (agent left, caller right): the voice measures and
   * their events from its audio, by the same voice-activity detector as a live call's; null
   * otherwise. Voice metrics score these when the row is not a simulated call.
   */
  voice_measures: VoiceMeasuresSchema.nullable(),
  voice_events: z.array(VoiceEventSchema).nullable(),
  created_at: Timestamp,
  updated_at: Timestamp,
});
export type CallImportRow = z.infer<typeof CallImportRowSchema>;

/** Row filters shared by the import detail and the row-ids listing. */
export const CallImportRowFilterQuerySchema = z.object({
  /** Case-insensitive substring of `conversation_id`. */
  q: z.string().max(200).optional(),
  diarised_status: DiarisedTranscriptStatusSchema.optional(),
});

/** Every matching row id, without the detail endpoint's row-limit cap. */
export const CallImportRowIdsSchema = z.object({
  ids: z.array(Uuid),
  total: z.number().int().min(0),
});
export type CallImportRowIds = z.infer<typeof CallImportRowIdsSchema>;

/** Rows a bulk action is limited to (at most 10,000); omitted or null means every row of the import. */
const RowIds = z.array(Uuid).max(10_000).nullable().optional();

export const TRANSCRIBE_MODES = ['stt_llm', 'llm_only'] as const;

/**
 * `stt_llm`: speech-to-text, then an LLM splits the text into turns (STT fields required).
 * `llm_only`: a chat model that accepts audio transcribes and diarises in one pass (STT fields
 * omitted or null). Providers are AI provider identifiers (`provider` of an AIProvider); the
 * diarisation provider and model default to the organization's default AI provider.
 */
export const TranscribeBodySchema = z
  .object({
    diarization_llm_provider: z.string().min(1).max(100).nullable().optional(),
    diarization_llm_model: z.string().min(1).max(200).nullable().optional(),
    mode: z.enum(TRANSCRIBE_MODES).default('stt_llm'),
    row_ids: RowIds,
    /** Also skip rows carrying a transcript from their source file. */
    only_missing: z.boolean().default(false),
    /** Re-diarise rows whose diarised transcript is already completed. */
    overwrite_existing: z.boolean().default(false),
    /** Instructions for splitting text into turns; null uses the built-in prompt. */
    diarization_prompt: z.string().min(1).max(20_000).nullable().optional(),
    stt_provider: z.string().min(1).max(100).nullable().optional(),
    stt_model: z.string().min(1).max(200).nullable().optional(),
  })
  .superRefine((body, ctx) => {
    for (const key of ['stt_provider', 'stt_model'] as const) {
      if (body.mode === 'stt_llm' && body[key] == null) {
        ctx.addIssue({ code: 'custom', path: [key], message: 'Required in stt_llm mode' });
      }
      if (body.mode === 'llm_only' && body[key] != null) {
        ctx.addIssue({ code: 'custom', path: [key], message: 'Must be omitted or null in llm_only mode' });
      }
    }
  });
export type TranscribeBody = z.input<typeof TranscribeBodySchema>;

/** Why the transcribe operation skipped a row. */
export const TRANSCRIBE_SKIP_REASONS = [
  'in_progress',
  'already_transcribed',
  'has_source_transcript',
  'no_audio',
  'not_found',
] as const;

/** Outcome of a transcribe request; `accepted` is true when at least one row was queued. */
export const TranscribeResultSchema = z.object({
  queued: z.number().int().min(0),
  skipped_rows: z.number().int().min(0),
  /** Skipped rows per reason; reasons with no rows are left out. */
  skipped_reason_counts: z.record(z.enum(TRANSCRIBE_SKIP_REASONS), z.number().int().min(0)),
  accepted: z.boolean(),
});
export type TranscribeResult = z.infer<typeof TranscribeResultSchema>;

/** Rows to cancel; omitted or null cancels every pending or running row of the import. */
export const CancelDiarisationBodySchema = z.object({ row_ids: RowIds }).optional();
export type CancelDiarisationBody = z.input<typeof CancelDiarisationBodySchema>;

/** Rows not pending or running (and unknown ids) count as skipped. */
export const CancelDiarisationResultSchema = z.object({
  cancelled: z.number().int().min(0),
  skipped: z.number().int().min(0),
});
export type CancelDiarisationResult = z.infer<typeof CancelDiarisationResultSchema>;

/** A link to a row's recording that works without credentials until `expires_at` (for `<audio src>`). */
export const RecordingUrlSchema = z.object({
  /** The recording's URL with `expires` and `signature` query parameters; absolute. */
  url: z.string().url(),
  expires_at: Timestamp,
});
export type RecordingUrl = z.infer<typeof RecordingUrlSchema>;

/** The query of a signed recording URL; without it, the request needs credentials as usual. */
export const RecordingQuerySchema = z.object({
  /** Unix time in seconds after which the signed URL is refused. */
  expires: z.coerce.number().int().min(0).optional(),
  /** HMAC-SHA256 (base64url) over the path and `expires`, made by the server. */
  signature: z
    .string()
    .regex(/^[A-Za-z0-9_-]{1,128}$/)
    .optional(),
});

/** How many points per channel to summarise a recording in (default 1000). */
export const RecordingPeaksQuerySchema = z.object({
  points: z.coerce.number().int().min(10).max(20_000).default(1000),
});

/**
 * A recording summarised for drawing: per channel (left, the agent's, first), the largest absolute
 * sample of each of `points` equal slices, from 0 to 1. A client draws the waveform from these
 * and streams the audio, instead of downloading and decoding the whole file first.
 */
export const RecordingPeaksSchema = z.object({
  duration_ms: z.number().int().min(0),
  sample_rate: z.number().int().min(1),
  channels: z
    .array(z.array(z.number().min(0).max(1)))
    .min(1)
    .max(8),
});
export type RecordingPeaks = z.infer<typeof RecordingPeaksSchema>;
