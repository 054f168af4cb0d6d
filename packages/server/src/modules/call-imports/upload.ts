import { mkdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import type { NextFunction, Request, RequestHandler, Response } from 'express';
import multer, { MulterError } from 'multer';
import type { Deps } from '../../deps.js';
import { ApiError } from '../../errors.js';

/** Most audio files one import takes. */
export const MAX_AUDIO_FILES = 500;
/** Most text fields beside the files, and the size of one (a column mapping is the longest). */
const MAX_FIELDS = 20;
const MAX_FIELD_BYTES = 256 * 1024;

/** The uploaded files of a create request, by field. */
export type UploadedFiles = { file?: Express.Multer.File[]; files?: Express.Multer.File[] };

export const uploadedFiles = (req: Request): UploadedFiles => (req.files ?? {}) as UploadedFiles;

/** Multer's limit errors as problems: 413 for a file over the size limit, 422 for anything else about the form. */
const toProblem = (error: unknown, limitBytes: number): unknown => {
  if (!(error instanceof MulterError)) return error;
  if (error.code === 'LIMIT_FILE_SIZE') {
    return new ApiError('payload_too_large', `A file is larger than ${limitBytes} bytes.`);
  }
  const hint =
    error.code === 'LIMIT_UNEXPECTED_FILE'
      ? `Send one manifest in "file" or up to ${MAX_AUDIO_FILES} recordings in "files"`
      : 'The form has too many or too large parts';
  return new ApiError('validation_failed', `${hint} (${error.message}).`, {
    errors: [{ path: error.field ? `body.${error.field}` : 'body', message: error.message }],
  });
};

/**
 * Removes the temporary files of a request once its response is done (whatever happened). A
 * body cut short leaves multer's entry of the file being written without a path; a failed
 * removal is logged, never an unhandled rejection (which would end the process).
 */
const cleanUp = (req: Request) => {
  const { file = [], files = [] } = uploadedFiles(req);
  for (const f of [...file, ...files]) {
    if (typeof f.path !== 'string') continue;
    rm(f.path, { force: true }).catch((err: unknown) => req.log?.warn({ err }, 'upload:cleanup_failed'));
  }
};

/**
 * Route middleware of POST /call-imports: multipart/form-data only (415 otherwise), the manifest
 * in `file` or recordings in `files` streamed to temporary files under `<dataDir>/tmp/uploads`
 * (never held in memory), each capped at `uploadLimitBytes`; the files are deleted after the response.
 */
export const callImportUpload = (deps: Deps): RequestHandler[] => {
  const limitBytes = deps.config.uploadLimitBytes;
  const dir = join(deps.config.dataDir, 'tmp', 'uploads');
  const storage = multer.diskStorage({
    destination: (_req, _file, done) => {
      mkdir(dir, { recursive: true }).then(
        () => done(null, dir),
        (error: Error) => done(error, dir),
      );
    },
  });
  const parse = multer({
    storage,
    limits: {
      fileSize: limitBytes,
      files: MAX_AUDIO_FILES,
      fields: MAX_FIELDS,
      fieldSize: MAX_FIELD_BYTES,
      parts: MAX_AUDIO_FILES + MAX_FIELDS,
    },
  }).fields([
    { name: 'file', maxCount: 1 },
    { name: 'files', maxCount: MAX_AUDIO_FILES },
  ]);
  const contentType = (req: Request, _res: Response, next: NextFunction) => {
    if (req.is('multipart/form-data')) return next();
    req.resume();
    next(new ApiError('unsupported_media_type', 'Send multipart/form-data with a "file" or "files" part.'));
  };
  const upload = (req: Request, res: Response, next: NextFunction) => {
    res.once('close', () => cleanUp(req));
    parse(req, res, (error?: unknown) => next(error ? toProblem(error, limitBytes) : undefined));
  };
  return [contentType, upload];
};
