import { z } from 'zod';
import { JsonObject, qBool, Timestamp, Uuid } from '../common.js';

/** The voice gender a persona presents; TTS voices are chosen to match. */
export const PERSONA_GENDERS = ['male', 'female', 'neutral'] as const;
export const PersonaGenderSchema = z.enum(PERSONA_GENDERS);

/**
 * Where a persona's background noise comes from: `none` (silence), `preset` (a built-in recording
 * named by `background_noise_preset`) or `custom` (audio uploaded to the ambient-audio endpoint).
 */
export const BACKGROUND_NOISE_SOURCES = ['none', 'preset', 'custom'] as const;
export const BackgroundNoiseSourceSchema = z.enum(BACKGROUND_NOISE_SOURCES);
export type BackgroundNoiseSource = z.infer<typeof BackgroundNoiseSourceSchema>;

/** Built-in background recordings the server ships. */
export const BACKGROUND_NOISE_PRESETS = ['office', 'call_center', 'cafe', 'street', 'car', 'home'] as const;
export const BackgroundNoisePresetSchema = z.enum(BACKGROUND_NOISE_PRESETS);

/**
 * A simulated caller: voice, LLM behaviour and acoustic environment. Built-in personas
 * (`is_custom: false`) are shared and read-only; custom ones belong to the caller's workspace.
 */
export const PersonaSchema = z.object({
  id: Uuid,
  name: z.string(),
  gender: PersonaGenderSchema,
  tts_provider: z.string(),
  tts_voice_id: z.string(),
  /** Display name of the voice; null when the provider reports none. */
  tts_voice_name: z.string().nullable(),
  description: z.string(),
  is_custom: z.boolean(),
  /** Provider-specific TTS settings (speed, stability, ...). */
  tts_config: JsonObject,
  llm_temperature: z.number(),
  llm_max_tokens: z.number().int(),
  /** Pause before the persona answers, in milliseconds. */
  response_delay_ms: z.number().int(),
  /** Conversation turns after which the persona hangs up. */
  max_turns: z.number().int(),
  /** Whether the persona may talk over the agent. */
  allow_interruptions: z.boolean(),
  background_noise_source: BackgroundNoiseSourceSchema,
  /** Set when `background_noise_source` is `preset`, else null. */
  background_noise_preset: BackgroundNoisePresetSchema.nullable(),
  /** Mix level of the background noise, 0 (silent) to 1 (as loud as the voice). */
  background_noise_volume: z.number().min(0).max(1),
  /**
   * Opaque storage key of the uploaded ambient audio; null when none is uploaded. An upload is
   * kept while the source is switched to `none` or `preset`, so `custom` can be selected again.
   */
  background_noise_storage_key: z.string().nullable(),
  /** Id of the uploaded ambient-audio asset (new on every upload); null when none is uploaded. */
  background_noise_asset_id: Uuid.nullable(),
  created_at: Timestamp,
  updated_at: Timestamp,
});
export type Persona = z.infer<typeof PersonaSchema>;

const writableFields = {
  name: z.string().trim().min(1).max(200),
  gender: PersonaGenderSchema,
  tts_provider: z.string().trim().min(1).max(100),
  tts_voice_id: z.string().trim().min(1).max(200),
  tts_voice_name: z.string().trim().min(1).max(200).nullable(),
  description: z.string().max(20_000),
  tts_config: JsonObject,
  llm_temperature: z.number().min(0).max(2),
  llm_max_tokens: z.number().int().min(1).max(32_000),
  response_delay_ms: z.number().int().min(0).max(10_000),
  max_turns: z.number().int().min(1).max(500),
  allow_interruptions: z.boolean(),
  background_noise_preset: BackgroundNoisePresetSchema.nullable(),
  background_noise_volume: z.number().min(0).max(1),
};

/**
 * Create a custom persona: `name`, `tts_provider` and `tts_voice_id` required. Background noise
 * starts as `none` or `preset` (which needs `background_noise_preset`); upload audio for `custom`.
 */
export const PersonaCreateBodySchema = z
  .object({ ...writableFields, background_noise_source: z.enum(['none', 'preset']) })
  .partial()
  .required({ name: true, tts_provider: true, tts_voice_id: true });
export type PersonaCreateBody = z.infer<typeof PersonaCreateBodySchema>;

/**
 * Update a custom persona (built-in ones are read-only). `custom` background noise may be
 * selected only while ambient audio is uploaded; `none` keeps the upload for later.
 */
export const PersonaUpdateBodySchema = z
  .object({ ...writableFields, background_noise_source: BackgroundNoiseSourceSchema })
  .partial();
export type PersonaUpdateBody = z.infer<typeof PersonaUpdateBodySchema>;

export const PersonaListQuerySchema = z.object({
  /** Case-insensitive substring of the name. */
  q: z.string().max(200).optional(),
  is_custom: qBool.optional(),
  gender: PersonaGenderSchema.optional(),
  tts_provider: z.string().max(100).optional(),
});

/**
 * Multipart body of the ambient-audio upload: one audio file in field `file` (WAV, MP3, OGG, FLAC
 * or M4A, checked by magic bytes, not by name or declared type). It replaces any previous upload.
 */
export type PersonaAmbientAudioBody = {
  file: File | Blob;
};
