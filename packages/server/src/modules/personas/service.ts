import type { PageQuery, Persona, PersonaCreateBody, PersonaUpdateBody } from '@voice-eval/contract';
import type { Knex } from 'knex';
import { actorLabel, type RequestContext } from '../../context.js';
import { paginate } from '../../db/paginate.js';
import { iso, isUniqueViolation } from '../../db/rows.js';
import type { Deps } from '../../deps.js';
import { ApiError, notFound } from '../../errors.js';
import { removeBlob } from './blobs.js';
import * as repo from './repo.js';

export type { PersonaRow } from './repo.js';

/** The organization and workspace a request acts in. */
export const scopeOf = (ctx: RequestContext) => ({
  organizationId: ctx.organizationId,
  workspaceId: ctx.workspaceId,
});

/** The wire form of a persona row. */
export const toPersona = (row: repo.PersonaRow): Persona => ({
  id: row.id,
  name: row.name,
  gender: row.gender as Persona['gender'],
  tts_provider: row.tts_provider,
  tts_voice_id: row.tts_voice_id,
  tts_voice_name: row.tts_voice_name,
  description: row.description,
  is_custom: row.is_custom,
  tts_config: row.tts_config,
  llm_temperature: row.llm_temperature,
  llm_max_tokens: row.llm_max_tokens,
  response_delay_ms: row.response_delay_ms,
  max_turns: row.max_turns,
  allow_interruptions: row.allow_interruptions,
  background_noise_source: row.background_noise_source as Persona['background_noise_source'],
  background_noise_preset: row.background_noise_preset as Persona['background_noise_preset'],
  background_noise_volume: row.background_noise_volume,
  background_noise_storage_key: row.background_noise_storage_key,
  background_noise_asset_id: row.background_noise_asset_id,
  created_at: iso(row.created_at),
  updated_at: iso(row.updated_at),
});

const ruleViolation = (path: string, message: string) =>
  new ApiError('rule_violation', message, { errors: [{ path: `body.${path}`, message }] });

type Noise = Pick<repo.PersonaRow, 'background_noise_source' | 'background_noise_preset'>;

/**
 * The background-noise source and preset after a write. Naming a preset alone selects `preset`;
 * `preset` needs a preset; `custom` needs an uploaded file; any other source clears the preset.
 */
const resolveNoise = (
  current: (Noise & { background_noise_storage_key: string | null }) | null,
  body: Pick<PersonaUpdateBody, 'background_noise_source' | 'background_noise_preset'>,
): Partial<Noise> => {
  if (body.background_noise_source === undefined && body.background_noise_preset === undefined) return {};
  const source =
    body.background_noise_source ??
    (body.background_noise_preset ? 'preset' : (current?.background_noise_source ?? 'none'));
  const preset =
    body.background_noise_preset !== undefined
      ? body.background_noise_preset
      : (current?.background_noise_preset ?? null);
  if (source === 'preset' && !preset) {
    throw ruleViolation('background_noise_preset', 'Required when background_noise_source is preset');
  }
  if (source !== 'preset' && body.background_noise_preset) {
    throw ruleViolation('background_noise_preset', 'Only allowed when background_noise_source is preset');
  }
  if (source === 'custom' && !current?.background_noise_storage_key) {
    throw ruleViolation('background_noise_source', 'Upload ambient audio before selecting custom');
  }
  return { background_noise_source: source, background_noise_preset: source === 'preset' ? preset : null };
};

const columnsOf = (body: PersonaUpdateBody): repo.PersonaWrite => {
  const { tts_config, background_noise_source: _s, background_noise_preset: _p, ...rest } = body;
  return tts_config === undefined ? rest : { ...rest, tts_config: JSON.stringify(tts_config) };
};

const nameConflict = (error: unknown): unknown =>
  isUniqueViolation(error, 'personas_name_unique')
    ? new ApiError('conflict', 'A persona with this name already exists in the workspace.')
    : error;

/**
 * The workspace's custom persona, locked for the transaction: 404 when it is not visible, 403
 * `forbidden` for a built-in persona (read-only).
 */
export const requireCustomForUpdate = async (db: Knex, ctx: RequestContext, id: string) => {
  const row = await repo.findCustomForUpdate(db, scopeOf(ctx), id);
  if (row) return row;
  if (await repo.findVisiblePersona(db, scopeOf(ctx), id)) {
    throw new ApiError('forbidden', 'Built-in personas are read-only; create a custom persona instead.');
  }
  throw notFound('Persona');
};

/** Personas visible in the workspace (built-in and custom) with these ids, in order; 404 when any is missing. */
export const requirePersonas = async (db: Knex, ctx: RequestContext, ids: readonly string[]) => {
  const rows = await repo.findVisiblePersonas(db, scopeOf(ctx), ids);
  const byId = new Map(rows.map((row) => [row.id, row]));
  return ids.map((id) => {
    const row = byId.get(id);
    if (!row) throw notFound(`Persona ${id}`);
    return row;
  });
};

/** Built-in personas and the workspace's custom ones, newest first, with filters. */
export const listPersonas = (
  deps: Deps,
  ctx: RequestContext,
  query: PageQuery & { q?: string; is_custom?: boolean; gender?: string; tts_provider?: string },
) => paginate(repo.personasQuery(deps.db, scopeOf(ctx), query), query, toPersona);

/** A built-in persona or one of the workspace's; 404 otherwise. */
export const getPersona = async (deps: Deps, ctx: RequestContext, id: string): Promise<Persona> => {
  const row = await repo.findVisiblePersona(deps.db, scopeOf(ctx), id);
  if (!row) throw notFound('Persona');
  return toPersona(row);
};

/**
 * Creates a custom persona. Defaults: gender `neutral`, temperature 0.7, 512 max tokens, 500 ms
 * response delay, 40 turns, interruptions allowed, no background noise at volume 0.2.
 */
export const createPersona = async (deps: Deps, ctx: RequestContext, body: PersonaCreateBody) => {
  try {
    const row = await repo.insertPersona(deps.db, {
      ...columnsOf(body),
      ...resolveNoise(null, body),
      is_custom: true,
      organization_id: ctx.organizationId,
      workspace_id: ctx.workspaceId,
      created_by: actorLabel(ctx),
    });
    return toPersona(row);
  } catch (error) {
    throw nameConflict(error);
  }
};

/** Updates a custom persona (built-in ones are 403), applying the background-noise rules. */
export const updatePersona = async (deps: Deps, ctx: RequestContext, id: string, body: PersonaUpdateBody) => {
  try {
    const row = await deps.db.transaction(async (trx) => {
      const current = await requireCustomForUpdate(trx, ctx, id);
      const patch = { ...columnsOf(body), ...resolveNoise(current, body) };
      return (await repo.updatePersona(trx, scopeOf(ctx), id, patch))!;
    });
    return toPersona(row);
  } catch (error) {
    throw nameConflict(error);
  }
};

/** Deletes a custom persona (409 `in_use` while evaluators or suites use it), then its ambient audio. */
export const deletePersona = async (deps: Deps, ctx: RequestContext, id: string): Promise<void> => {
  const storageKey = await deps.db.transaction(async (trx) => {
    const row = await requireCustomForUpdate(trx, ctx, id);
    if (await repo.isPersonaInUse(trx, id)) {
      throw new ApiError('in_use', 'Evaluators or suites use this persona; delete them first.');
    }
    await repo.deletePersona(trx, scopeOf(ctx), id);
    return row.background_noise_storage_key;
  });
  if (storageKey) await removeBlob(deps, storageKey);
};
