import {
  type PageQuery,
  VOICE_BUNDLE_COMPONENTS,
  VOICE_BUNDLE_TYPE_COMPONENTS,
  type VoiceBundle,
  type VoiceBundleComponent,
  type VoiceBundleCreateBody,
  type VoiceBundleType,
  type VoiceBundleUpdateBody,
  voiceBundleMissingFields,
} from '@voice-eval/contract';
import type { Knex } from 'knex';
import { actorLabel, type RequestContext } from '../../context.js';
import { paginate } from '../../db/paginate.js';
import { iso } from '../../db/rows.js';
import type { Deps } from '../../deps.js';
import { ApiError, type FieldError, notFound } from '../../errors.js';
import { getAiProvider } from '../ai-providers/service.js';
import * as repo from './repo.js';

/** A bundle row as the wire's VoiceBundle. */
export const toVoiceBundle = (row: repo.VoiceBundleRow): VoiceBundle => {
  const { organization_id: _org, workspace_id: _ws, created_at, updated_at, ...fields } = row;
  return {
    ...fields,
    llm_temperature: row.llm_temperature === null ? null : Number(row.llm_temperature),
    missing_fields: voiceBundleMissingFields(row),
    created_at: iso(created_at),
    updated_at: iso(updated_at),
  };
};

/** Every column of each component: its fields start with the component's name. */
const COMPONENT_FIELDS = {
  stt: ['stt_provider', 'stt_model', 'stt_credential_id'],
  llm: ['llm_provider', 'llm_model', 'llm_temperature', 'llm_max_tokens', 'llm_config', 'llm_credential_id'],
  tts: ['tts_provider', 'tts_model', 'tts_voice', 'tts_config', 'tts_credential_id'],
  s2s: ['s2s_provider', 's2s_model', 's2s_config', 's2s_credential_id'],
} as const satisfies Record<VoiceBundleComponent, readonly (keyof repo.VoiceBundleWrite)[]>;

const CREDENTIAL_FIELDS = VOICE_BUNDLE_COMPONENTS.map((c) => `${c}_credential_id` as const);

/** A component field's cleared value: `{}` for configs, null otherwise. */
const cleared = (field: string) => (field.endsWith('_config') ? {} : null);

const isSet = (value: unknown) =>
  value !== null && value !== undefined && !(typeof value === 'object' && Object.keys(value).length === 0);

const unusedComponents = (type: VoiceBundleType) =>
  VOICE_BUNDLE_COMPONENTS.filter(
    (c) => !(VOICE_BUNDLE_TYPE_COMPONENTS[type] as readonly string[]).includes(c),
  );

/** Fields of components `type` does not use that the request sets (they must be omitted, null or `{}`). */
const unusedFieldErrors = (type: VoiceBundleType, body: Record<string, unknown>): FieldError[] =>
  unusedComponents(type).flatMap((component) =>
    COMPONENT_FIELDS[component]
      .filter((field) => isSet(body[field]))
      .map((field) => ({
        path: `body.${field}`,
        message: `A ${type} bundle does not use ${component} fields`,
      })),
  );

/** Fields its type requires that a bundle lacks, as field errors at `where`. */
const missingFieldErrors = (
  bundle: Record<string, unknown> & { bundle_type: VoiceBundleType },
  where: string,
): FieldError[] =>
  voiceBundleMissingFields(bundle).map((field) => ({
    path: `${where}.${field}`,
    message: `Required for a ${bundle.bundle_type} bundle`,
  }));

/**
 * Credential ids the request sets that are not AI providers of the organization (active or not).
 * A credential is not matched against the component's provider: a gateway credential serves many.
 */
const credentialErrors = async (deps: Deps, ctx: RequestContext, body: Record<string, unknown>) => {
  const given = CREDENTIAL_FIELDS.filter((field) => typeof body[field] === 'string');
  const errors: FieldError[] = [];
  for (const field of given) {
    try {
      await getAiProvider(deps, ctx, body[field] as string);
    } catch (error) {
      if (!(error instanceof ApiError && error.code === 'not_found')) throw error;
      errors.push({ path: `body.${field}`, message: 'No AI provider of this organization has this id' });
    }
  }
  return errors;
};

/**
 * Checks the request against the bundle it produces: fields of components its type does not use
 * stay unset, and a bundle in use stays complete (`inUse`); with the credential errors found
 * before, every problem at once (422). A bundle nobody uses may lack required fields: it reports
 * them in `missing_fields` and is checked when an agent takes it (`requireUsableVoiceBundle`).
 */
const checkBundle = (
  body: Record<string, unknown>,
  merged: Record<string, unknown> & { bundle_type: VoiceBundleType },
  credentialProblems: FieldError[],
  inUse = false,
) => {
  const errors = [
    ...unusedFieldErrors(merged.bundle_type, body),
    ...(inUse ? missingFieldErrors(merged, 'body') : []),
    ...credentialProblems,
  ];
  if (errors.length > 0) {
    const detail = errors.some((e) => e.message.startsWith('Required'))
      ? `An agent uses this voice bundle: it must keep every field a ${merged.bundle_type} bundle needs.`
      : `The ${merged.bundle_type} voice bundle is not valid.`;
    throw new ApiError('rule_violation', detail, { errors });
  }
};

const DEFAULTS: repo.VoiceBundleWrite = {
  description: '',
  bundle_type: 'stt_llm_tts',
  ...(Object.fromEntries(
    Object.values(COMPONENT_FIELDS)
      .flat()
      .map((field) => [field, cleared(field)]),
  ) as Omit<repo.VoiceBundleWrite, 'description' | 'bundle_type' | 'extra_metadata' | 'is_active'>),
  extra_metadata: {},
  is_active: true,
};

/**
 * Creates a bundle in the active workspace. Only `name` is needed: what its type still lacks is
 * reported in `missing_fields` (see `VOICE_BUNDLE_REQUIRED_FIELDS`).
 */
export const createVoiceBundle = async (
  deps: Deps,
  ctx: RequestContext,
  body: VoiceBundleCreateBody,
): Promise<VoiceBundle> => {
  const { name, ...fields } = body;
  const values: repo.VoiceBundleWrite = { ...DEFAULTS, ...fields };
  checkBundle(body, values, await credentialErrors(deps, ctx, body));
  const row = await repo.insertBundle(deps.db, {
    ...values,
    name,
    organization_id: ctx.organizationId,
    workspace_id: ctx.workspaceId,
    created_by: actorLabel(ctx),
  });
  return toVoiceBundle(row);
};

/**
 * Applies a partial update. Changing `bundle_type` clears the stored fields of components the new
 * type does not use, so a stored bundle never carries another type's configuration. A bundle an
 * agent uses must stay complete.
 */
export const updateVoiceBundle = async (
  deps: Deps,
  ctx: RequestContext,
  id: string,
  body: VoiceBundleUpdateBody,
): Promise<VoiceBundle> => {
  const credentialProblems = await credentialErrors(deps, ctx, body);
  return deps.db.transaction(async (trx) => {
    const current = await repo.findBundleForUpdate(trx, ctx, id);
    if (!current) throw notFound('Voice bundle');
    const patch: Partial<repo.VoiceBundleWrite> & { name?: string } = { ...body };
    if (body.bundle_type && body.bundle_type !== current.bundle_type) {
      for (const component of unusedComponents(body.bundle_type)) {
        for (const field of COMPONENT_FIELDS[component]) {
          if (!(field in body)) Object.assign(patch, { [field]: cleared(field) });
        }
      }
    }
    const inUse = (await repo.agentCount(trx, id)) > 0;
    checkBundle(body, { ...current, ...patch }, credentialProblems, inUse);
    return toVoiceBundle((await repo.updateBundle(trx, ctx, id, patch))!);
  });
};

/** A bundle of the active workspace (404 otherwise). */
export const getVoiceBundle = async (deps: Deps, ctx: RequestContext, id: string): Promise<VoiceBundle> => {
  const row = await repo.findBundle(deps.db, ctx, id);
  if (!row) throw notFound('Voice bundle');
  return toVoiceBundle(row);
};

/** The active workspace's bundles, newest first. */
export const listVoiceBundles = (
  deps: Deps,
  ctx: RequestContext,
  query: PageQuery & { bundle_type?: VoiceBundleType; is_active?: boolean; q?: string },
) => paginate(repo.bundlesQuery(deps.db, ctx, query), query, toVoiceBundle);

/** Deletes a bundle of the active workspace; 409 `in_use` while an agent uses it. */
export const deleteVoiceBundle = async (deps: Deps, ctx: RequestContext, id: string): Promise<void> =>
  deps.db.transaction(async (trx) => {
    if (!(await repo.findBundleForUpdate(trx, ctx, id))) throw notFound('Voice bundle');
    const agents = await repo.agentCount(trx, id);
    if (agents > 0) {
      throw new ApiError(
        'in_use',
        `${agents === 1 ? 'An agent uses' : `${agents} agents use`} this voice bundle; change them first.`,
      );
    }
    await repo.deleteBundle(trx, ctx, id);
  });

/**
 * The workspace's bundle with this id, for a module that uses it (an agent): 404 when unknown,
 * 422 `rule_violation` naming the fields at `field` when it lacks what its type needs. Inside the
 * caller's transaction it holds a share lock, so the bundle cannot become incomplete meanwhile.
 */
export const requireUsableVoiceBundle = async (
  db: Knex,
  ctx: RequestContext,
  id: string,
  field = 'body.voice_bundle_id',
): Promise<VoiceBundle> => {
  const row = db.isTransaction
    ? await repo.findBundle(db, ctx, id).forShare()
    : await repo.findBundle(db, ctx, id);
  if (!row) throw notFound('Voice bundle');
  const missing = voiceBundleMissingFields(row);
  if (missing.length > 0) {
    const message = `The ${row.bundle_type} voice bundle lacks ${missing.join(', ')}`;
    throw new ApiError('rule_violation', `${message}; complete it before an agent uses it.`, {
      errors: [{ path: field, message }],
    });
  }
  return toVoiceBundle(row);
};
