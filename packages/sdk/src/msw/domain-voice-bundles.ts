import {
  VOICE_BUNDLE_COMPONENTS,
  VOICE_BUNDLE_TYPE_COMPONENTS,
  type VoiceBundle,
  type VoiceBundleType,
  voiceBundleMissingFields,
} from '@voice-eval/contract';
import { createRow, patchRow } from './crud.js';
import { idOf, type MockEnv, notFound, type RouteImpl } from './env.js';
import type { MockReply, ParsedRequest } from './respond.js';

type Body = Record<string, unknown>;
type FieldError = { path: string; message: string };

/** Every component field, cleared: what the server stores for a field the create body omits. */
const CLEARED: Body = {
  stt_provider: null,
  stt_model: null,
  stt_credential_id: null,
  llm_provider: null,
  llm_model: null,
  llm_temperature: null,
  llm_max_tokens: null,
  llm_config: {},
  llm_credential_id: null,
  tts_provider: null,
  tts_model: null,
  tts_voice: null,
  tts_config: {},
  tts_credential_id: null,
  s2s_provider: null,
  s2s_model: null,
  s2s_config: {},
  s2s_credential_id: null,
};

const componentOf = (field: string) => VOICE_BUNDLE_COMPONENTS.find((c) => field.startsWith(`${c}_`));
const isUnused = (type: VoiceBundleType, field: string) => {
  const component = componentOf(field);
  return (
    component !== undefined && !(VOICE_BUNDLE_TYPE_COMPONENTS[type] as readonly string[]).includes(component)
  );
};
const isSet = (value: unknown) =>
  value !== null && value !== undefined && !(typeof value === 'object' && Object.keys(value).length === 0);

const ruleViolation = (detail: string, errors: FieldError[]): MockReply => ({
  status: 422,
  body: { code: 'rule_violation', detail, errors },
});

/** Fields of components the type does not use that the body sets (422 on the server). */
const strayFields = (type: VoiceBundleType, body: Body): FieldError[] =>
  Object.keys(body)
    .filter((field) => isUnused(type, field) && isSet(body[field]))
    .map((field) => ({
      path: `body.${field}`,
      message: `A ${type} bundle does not use ${componentOf(field)} fields`,
    }));

const withMissing = (bundle: Body & { bundle_type: VoiceBundleType }) => ({
  ...bundle,
  missing_fields: voiceBundleMissingFields(bundle),
});

const bodyOf = (req: ParsedRequest) => (req.body ?? {}) as Body;

/** As the server: only `name` is needed; what the type lacks is reported in `missing_fields`. */
const create: RouteImpl = (req, env) => {
  const body = bodyOf(req);
  const type = (body.bundle_type ?? 'stt_llm_tts') as VoiceBundleType;
  const stray = strayFields(type, body);
  if (stray.length > 0) return ruleViolation(`The ${type} voice bundle is not valid.`, stray);
  const bundle = withMissing({
    description: '',
    extra_metadata: {},
    is_active: true,
    ...CLEARED,
    ...body,
    bundle_type: type,
  });
  return { status: 201, body: createRow(env, 'voiceBundles', { ...req, body: bundle }) };
};

/** As the server: a type change clears other components; a bundle an agent uses stays complete. */
const update: RouteImpl = (req, env) => {
  const current = env.db.voiceBundles.get(idOf(req), req.workspaceId);
  if (!current) return notFound('Voice bundle');
  const body = bodyOf(req);
  const type = (body.bundle_type ?? current.bundle_type) as VoiceBundleType;
  const patch: Body = { ...body };
  if (type !== current.bundle_type) {
    for (const [field, value] of Object.entries(CLEARED))
      if (isUnused(type, field) && !(field in body)) patch[field] = value;
  }
  const merged = withMissing({ ...current, ...patch, bundle_type: type });
  const inUse = env.db.agents.all().some((agent) => agent.voice_bundle_id === current.id);
  const missing = inUse
    ? merged.missing_fields.map((f) => ({ path: `body.${f}`, message: `Required for a ${type} bundle` }))
    : [];
  const errors = [...strayFields(type, body), ...missing];
  if (errors.length > 0) return ruleViolation(`The ${type} voice bundle is not valid.`, errors);
  return patchRow(env, 'voiceBundles', req, { ...patch, missing_fields: merged.missing_fields });
};

/**
 * The problem the server answers when an agent is given a voice bundle that is not the
 * workspace's (404) or lacks what its type needs (422); undefined when the bundle is usable.
 */
export const unusableBundle = (env: MockEnv, req: ParsedRequest, id: unknown): MockReply | undefined => {
  if (typeof id !== 'string') return undefined;
  const bundle: VoiceBundle | undefined = env.db.voiceBundles.get(id, req.workspaceId);
  if (!bundle) return notFound('Voice bundle');
  const missing = voiceBundleMissingFields(bundle);
  if (missing.length === 0) return undefined;
  const message = `The ${bundle.bundle_type} voice bundle lacks ${missing.join(', ')}`;
  return ruleViolation(`${message}; complete it before an agent uses it.`, [
    { path: 'body.voice_bundle_id', message },
  ]);
};

/** Voice bundles as the server treats them: created from a name, completeness reported and enforced on use. */
export const voiceBundleImpls: Record<string, RouteImpl> = {
  'voiceBundles.create': create,
  'voiceBundles.update': update,
};
