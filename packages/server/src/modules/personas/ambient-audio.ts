import { randomUUID } from 'node:crypto';
import { createReadStream } from 'node:fs';
import type { Persona } from '@voice-eval/contract';
import type { RequestContext } from '../../context.js';
import type { Deps } from '../../deps.js';
import { ApiError } from '../../errors.js';
import { blobKey, sniffAudioFile } from '../../storage/index.js';
import { removeBlob } from './blobs.js';
import * as repo from './repo.js';
import { requireCustomForUpdate, scopeOf, toPersona } from './service.js';

/** An uploaded file as multer's disk storage hands it over: a temporary file. */
export type UploadedFile = { path: string; size: number };

/** Ambient audio is an enterprise-plan feature: 403 `feature_not_available` on other plans. */
export const assertAmbientAudioPlan = (ctx: RequestContext): void => {
  if (ctx.plan !== 'enterprise') {
    throw new ApiError('feature_not_available', 'Custom ambient audio needs the enterprise plan.');
  }
};

const checkedAudio = async (file: UploadedFile | undefined) => {
  if (!file || file.size === 0) {
    throw new ApiError('validation_failed', 'Send one non-empty audio file in the form field "file".', {
      errors: [{ path: 'body.file', message: 'Required' }],
    });
  }
  const audio = await sniffAudioFile(file.path);
  if (!audio) {
    throw new ApiError('unsupported_media_type', 'The file is not WAV, MP3, OGG, FLAC or M4A audio.');
  }
  return audio;
};

/**
 * Uploads or replaces a custom persona's ambient audio and selects it (`custom`). The new blob is
 * streamed from the upload's temporary file first; the row then points at it in one transaction; the previous blob is removed only
 * after that commit. If the transaction fails, the new blob is removed, so nothing is orphaned.
 */
export const uploadAmbientAudio = async (
  deps: Deps,
  ctx: RequestContext,
  personaId: string,
  file: UploadedFile | undefined,
): Promise<Persona> => {
  assertAmbientAudioPlan(ctx);
  const audio = await checkedAudio(file);
  await requireCustomForUpdate(deps.db, ctx, personaId);
  const assetId = randomUUID();
  const key = blobKey('ambient-audio', ctx.organizationId, personaId, `${assetId}.${audio.extension}`);
  await deps.storage.put(key, createReadStream(file!.path), { contentType: audio.contentType });
  let committed: { row: repo.PersonaRow; previous: string | null };
  try {
    committed = await deps.db.transaction(async (trx) => {
      const current = await requireCustomForUpdate(trx, ctx, personaId);
      const row = await repo.updatePersona(trx, scopeOf(ctx), personaId, {
        background_noise_source: 'custom',
        background_noise_preset: null,
        background_noise_storage_key: key,
        background_noise_asset_id: assetId,
        background_noise_content_type: audio.contentType,
      });
      return { row: row!, previous: current.background_noise_storage_key };
    });
  } catch (error) {
    await removeBlob(deps, key);
    throw error;
  }
  if (committed.previous && committed.previous !== key) await removeBlob(deps, committed.previous);
  deps.logger.info({ personaId, assetId, format: audio.format, bytes: file!.size }, 'ambient_audio:stored');
  return toPersona(committed.row);
};

/**
 * Deletes a custom persona's ambient audio: the row forgets it (a `custom` source falls back to
 * `none`), then the blob is removed after the commit. Deleting when none is uploaded is a no-op.
 */
export const deleteAmbientAudio = async (
  deps: Deps,
  ctx: RequestContext,
  personaId: string,
): Promise<Persona> => {
  assertAmbientAudioPlan(ctx);
  const { row, previous } = await deps.db.transaction(async (trx) => {
    const current = await requireCustomForUpdate(trx, ctx, personaId);
    if (!current.background_noise_storage_key) return { row: current, previous: null };
    const updated = await repo.updatePersona(trx, scopeOf(ctx), personaId, {
      background_noise_source:
        current.background_noise_source === 'custom' ? 'none' : current.background_noise_source,
      background_noise_storage_key: null,
      background_noise_asset_id: null,
      background_noise_content_type: null,
    });
    return { row: updated!, previous: current.background_noise_storage_key };
  });
  if (previous) await removeBlob(deps, previous);
  return toPersona(row);
};
