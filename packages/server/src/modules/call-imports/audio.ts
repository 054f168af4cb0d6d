import type { CallImportSchema } from '@voice-eval/contract';
import type { Knex } from 'knex';
import type { RequestContext } from '../../context.js';
import type { Deps } from '../../deps.js';
import { ApiError } from '../../errors.js';
import { blobKey, sniffAudioFile } from '../../storage/index.js';
import { flushRows, SkipLog } from './ingest.js';
import type { RowInput } from './row-repo.js';
import { storeFile } from './store-file.js';
import { MAX_CONVERSATION_ID_LENGTH } from './values.js';

/** Parameter types an audio upload fills by itself: the id (from the file name) and the recording. */
const FILLED_BY_AUDIO = new Set(['conversation_id', 'recording_url']);

/**
 * An audio upload has no columns: a schema requiring any other parameter cannot describe it (422),
 * rather than every row being skipped.
 */
export const assertAudioSchema = (schema: CallImportSchema): void => {
  const unfillable = schema.parameters.filter((p) => p.is_required && !FILLED_BY_AUDIO.has(p.type));
  if (unfillable.length === 0) return;
  throw new ApiError('rule_violation', 'Audio uploads cannot fill the required parameters of this schema.', {
    errors: unfillable.map((p) => ({ path: 'body.schema_id', message: `"${p.name}" is required` })),
  });
};

/** The conversation id of an uploaded recording: its file name without the extension. */
export const conversationIdOf = (filename: string, sourceRow: number): string => {
  const base = filename
    .split(/[\\/]/)
    .pop()!
    .replace(/\.[^.]+$/, '')
    .trim();
  return (base || `recording-${sourceRow}`).slice(0, MAX_CONVERSATION_ID_LENGTH);
};

type AudioIngest = {
  deps: Deps;
  ctx: RequestContext;
  callImportId: string;
  /** The schema's conversation_id parameter name. */
  idParameter: string;
  /** Keys written so far, for the caller to remove if the import is rolled back. */
  storedKeys: string[];
};

/**
 * One row per uploaded recording, in upload order: the file is checked by magic bytes (anything
 * else is skipped as `invalid_recording`), stored under the import, and its name (without the
 * extension) is the conversation id (a repeated name is skipped as a duplicate). Files are
 * streamed to storage one at a time, never read whole. 415 when not one file is audio.
 */
export const ingestAudio = async (db: Knex, files: readonly Express.Multer.File[], job: AudioIngest) => {
  const skips = new SkipLog();
  const batch: RowInput[] = [];
  const seen = new Set<string>();
  for (const [index, file] of files.entries()) {
    const sourceRow = index + 1;
    const conversationId = conversationIdOf(file.originalname, sourceRow);
    const audio = await sniffAudioFile(file.path);
    if (!audio) {
      skips.add(
        sourceRow,
        'invalid_recording',
        `"${file.originalname}" is not a WAV, MP3, OGG, FLAC or M4A file.`,
      );
      continue;
    }
    if (seen.has(conversationId)) {
      skips.add(sourceRow, 'duplicate_conversation_id', `Conversation "${conversationId}" appears earlier.`);
      continue;
    }
    seen.add(conversationId);
    const key = blobKey(
      'call-imports',
      job.ctx.organizationId,
      job.callImportId,
      `${sourceRow}.${audio.extension}`,
    );
    job.storedKeys.push(key);
    await storeFile(job.deps.storage, key, file.path, audio.contentType);
    batch.push({
      conversation_id: conversationId,
      source_row: sourceRow,
      parameters: { [job.idParameter]: conversationId },
      recording_url: null,
      recording_storage_key: key,
      source_transcript: null,
    });
  }
  if (batch.length === 0 && skips.entries.every((s) => s.reason === 'invalid_recording')) {
    throw new ApiError(
      'unsupported_media_type',
      'None of the files is a WAV, MP3, OGG, FLAC or M4A recording.',
    );
  }
  const inserted = await flushRows(db, job.callImportId, batch, skips);
  return { inserted, skips };
};
