import { z } from 'zod';
import { JsonObject, qBool, Timestamp, Uuid } from '../common.js';

/**
 * Which components a bundle configures: a cascaded pipeline (`stt_llm_tts`), a speech-to-speech
 * model (`s2s`), or a single component (`stt`, `llm`, `tts`).
 */
export const VOICE_BUNDLE_TYPES = ['stt_llm_tts', 's2s', 'stt', 'llm', 'tts'] as const;
export const VoiceBundleTypeSchema = z.enum(VOICE_BUNDLE_TYPES);
export type VoiceBundleType = z.infer<typeof VoiceBundleTypeSchema>;

/** The component groups of a bundle; each group's fields start with its name (`stt_provider`, ...). */
export const VOICE_BUNDLE_COMPONENTS = ['stt', 'llm', 'tts', 's2s'] as const;
export type VoiceBundleComponent = (typeof VOICE_BUNDLE_COMPONENTS)[number];

/** The components each bundle type uses. Fields of components a type does not use must be omitted or null (422 otherwise). */
export const VOICE_BUNDLE_TYPE_COMPONENTS = {
  stt_llm_tts: ['stt', 'llm', 'tts'],
  s2s: ['s2s'],
  stt: ['stt'],
  llm: ['llm'],
  tts: ['tts'],
} as const satisfies Record<VoiceBundleType, readonly VoiceBundleComponent[]>;

/**
 * Fields that must be non-null for each bundle type, after an update is applied to the stored
 * bundle (422 `rule_violation` otherwise). `tts_voice`, credentials and configs stay optional.
 */
export const VOICE_BUNDLE_REQUIRED_FIELDS = {
  stt_llm_tts: ['stt_provider', 'stt_model', 'llm_provider', 'llm_model', 'tts_provider', 'tts_model'],
  s2s: ['s2s_provider', 's2s_model'],
  stt: ['stt_provider', 'stt_model'],
  llm: ['llm_provider', 'llm_model'],
  tts: ['tts_provider', 'tts_model'],
} as const satisfies Record<VoiceBundleType, readonly string[]>;

/**
 * A speech-to-text, LLM, text-to-speech or speech-to-speech configuration, kept in the active
 * workspace. Fields of unused components are null; `*_credential_id` names an AI provider of the
 * organization whose stored key is used (null: the organization's default for that provider).
 */
export const VoiceBundleSchema = z.object({
  id: Uuid,
  name: z.string(),
  description: z.string(),
  bundle_type: VoiceBundleTypeSchema,
  stt_provider: z.string().nullable(),
  stt_model: z.string().nullable(),
  stt_credential_id: Uuid.nullable(),
  llm_provider: z.string().nullable(),
  llm_model: z.string().nullable(),
  llm_temperature: z.number().nullable(),
  llm_max_tokens: z.number().int().nullable(),
  llm_config: JsonObject,
  llm_credential_id: Uuid.nullable(),
  tts_provider: z.string().nullable(),
  tts_model: z.string().nullable(),
  tts_voice: z.string().nullable(),
  tts_config: JsonObject,
  tts_credential_id: Uuid.nullable(),
  s2s_provider: z.string().nullable(),
  s2s_model: z.string().nullable(),
  s2s_config: JsonObject,
  s2s_credential_id: Uuid.nullable(),
  extra_metadata: JsonObject,
  is_active: z.boolean(),
  created_at: Timestamp,
  updated_at: Timestamp,
  created_by: z.string(),
});
export type VoiceBundle = z.infer<typeof VoiceBundleSchema>;

const NAME = z.string().trim().min(1).max(200);
const PROVIDER = z.string().trim().min(1).max(100);
const MODEL = z.string().trim().min(1).max(200);

/** Fields a caller may set; nullable ones may be cleared with null. */
const writableFields = {
  description: z.string().max(10_000),
  bundle_type: VoiceBundleTypeSchema,
  stt_provider: PROVIDER.nullable(),
  stt_model: MODEL.nullable(),
  stt_credential_id: Uuid.nullable(),
  llm_provider: PROVIDER.nullable(),
  llm_model: MODEL.nullable(),
  llm_temperature: z.number().min(0).max(2).nullable(),
  llm_max_tokens: z.number().int().min(1).max(1_000_000).nullable(),
  llm_config: JsonObject,
  llm_credential_id: Uuid.nullable(),
  tts_provider: PROVIDER.nullable(),
  tts_model: MODEL.nullable(),
  tts_voice: z.string().trim().min(1).max(200).nullable(),
  tts_config: JsonObject,
  tts_credential_id: Uuid.nullable(),
  s2s_provider: PROVIDER.nullable(),
  s2s_model: MODEL.nullable(),
  s2s_config: JsonObject,
  s2s_credential_id: Uuid.nullable(),
  extra_metadata: JsonObject,
  is_active: z.boolean(),
};

/**
 * Create body: `name` required; `bundle_type` defaults to `stt_llm_tts`, `description` to `''`,
 * configs and `extra_metadata` to `{}`, `is_active` to true. See `VOICE_BUNDLE_REQUIRED_FIELDS`.
 */
export const VoiceBundleCreateBodySchema = z
  .object({ name: NAME, ...writableFields })
  .partial()
  .required({ name: true });
export type VoiceBundleCreateBody = z.infer<typeof VoiceBundleCreateBodySchema>;

/** Update (PATCH): every writable field optional; the result must still satisfy its bundle type. */
export const VoiceBundleUpdateBodySchema = z.object({ name: NAME, ...writableFields }).partial();
export type VoiceBundleUpdateBody = z.infer<typeof VoiceBundleUpdateBodySchema>;

/** List filters; `q` is a case-insensitive substring of the name. */
export const VoiceBundleListQuerySchema = z.object({
  bundle_type: VoiceBundleTypeSchema.optional(),
  is_active: qBool.optional(),
  q: z.string().max(200).optional(),
});
