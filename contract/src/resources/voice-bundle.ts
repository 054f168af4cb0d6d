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
 * Fields a bundle of each type needs before it can be used. A bundle may be saved without them
 * (only `name` is required) and lists the ones it lacks in `missing_fields`; giving an agent an
 * incomplete bundle, or making a bundle an agent uses incomplete, is 422 `rule_violation`.
 * `tts_voice`, credentials and configs stay optional.
 */
export const VOICE_BUNDLE_REQUIRED_FIELDS = {
  stt_llm_tts: ['stt_provider', 'stt_model', 'llm_provider', 'llm_model', 'tts_provider', 'tts_model'],
  s2s: ['s2s_provider', 's2s_model'],
  stt: ['stt_provider', 'stt_model'],
  llm: ['llm_provider', 'llm_model'],
  tts: ['tts_provider', 'tts_model'],
} as const satisfies Record<VoiceBundleType, readonly string[]>;

/**
 * The fields of `VOICE_BUNDLE_REQUIRED_FIELDS` that a bundle of its type lacks (null, absent or
 * blank), in that order; empty when the bundle is complete and can be used.
 */
export const voiceBundleMissingFields = (
  bundle: { bundle_type: VoiceBundleType } & Partial<Record<string, unknown>>,
): string[] =>
  VOICE_BUNDLE_REQUIRED_FIELDS[bundle.bundle_type].filter((field) => {
    const value = bundle[field];
    return value === null || value === undefined || (typeof value === 'string' && value.trim() === '');
  });

/**
 * A speech-to-text, LLM, text-to-speech or speech-to-speech configuration, kept in the active
 * workspace. Fields of unused components are null; `*_credential_id` names an AI provider of the
 * organization whose stored key is used (null: the organization's default for that provider).
 * `missing_fields` lists what its type still needs before an agent can use it.
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
  /** Required fields of its `bundle_type` that are not set (`VOICE_BUNDLE_REQUIRED_FIELDS`); empty when usable. */
  missing_fields: z.array(z.string()),
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
 * Create body: only `name` is required (the spec); `bundle_type` defaults to `stt_llm_tts`,
 * `description` to `''`, configs and `extra_metadata` to `{}`, `is_active` to true. The fields a
 * type needs may come later: see `missing_fields`. Fields of components the type does not use must
 * be omitted or null (422).
 */
export const VoiceBundleCreateBodySchema = z
  .object({ name: NAME, ...writableFields })
  .partial()
  .required({ name: true });
export type VoiceBundleCreateBody = z.infer<typeof VoiceBundleCreateBodySchema>;

/**
 * Update (PATCH): every writable field optional. A bundle an agent uses must stay complete (422
 * `rule_violation` listing the missing fields); others may be left incomplete.
 */
export const VoiceBundleUpdateBodySchema = z.object({ name: NAME, ...writableFields }).partial();
export type VoiceBundleUpdateBody = z.infer<typeof VoiceBundleUpdateBodySchema>;

/** List filters; `q` is a case-insensitive substring of the name. */
export const VoiceBundleListQuerySchema = z.object({
  bundle_type: VoiceBundleTypeSchema.optional(),
  is_active: qBool.optional(),
  q: z.string().max(200).optional(),
});
