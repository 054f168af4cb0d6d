import { mkdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import type { NextFunction, Request, RequestHandler, Response } from 'express';
import multer, { MulterError } from 'multer';
import { contextOf } from '../../context.js';
import type { Deps } from '../../deps.js';
import { ApiError } from '../../errors.js';
import { assertAmbientAudioPlan } from './ambient-audio.js';

/** Text fields tolerated beside the file (and ignored). */
const MAX_FIELDS = 5;

/** Multer's limit errors as problems: 413 for the size, 422 for anything else about the form. */
const toProblem = (error: unknown, limitBytes: number): unknown => {
  if (!(error instanceof MulterError)) return error;
  if (error.code === 'LIMIT_FILE_SIZE') {
    return new ApiError('payload_too_large', `The file is larger than ${limitBytes} bytes.`);
  }
  return new ApiError(
    'validation_failed',
    `Send one audio file in the form field "file" (${error.message}).`,
    {
      errors: [{ path: error.field ? `body.${error.field}` : 'body', message: error.message }],
    },
  );
};

/** Answers early without reading the body; the rest of it is drained so the client sees the answer. */
const reject = (req: Request, next: NextFunction, error: unknown) => {
  req.resume();
  next(error);
};

/**
 * Route middleware of the ambient-audio upload, in order: the plan check (before any byte is
 * read), then a multipart/form-data parse of one file in field `file`, streamed to a temporary
 * file under `<dataDir>/tmp/uploads` (never held in memory) and capped at `ambientAudioLimitBytes`;
 * the file is deleted once the response is done. Other content types are 415.
 */
export const ambientAudioUpload = (deps: Deps): RequestHandler[] => {
  const limitBytes = deps.config.ambientAudioLimitBytes;
  const dir = join(deps.config.dataDir, 'tmp', 'uploads');
  const parse = multer({
    storage: multer.diskStorage({
      destination: (_req, _file, done) => {
        mkdir(dir, { recursive: true }).then(
          () => done(null, dir),
          (error: Error) => done(error, dir),
        );
      },
    }),
    limits: { fileSize: limitBytes, files: 1, fields: MAX_FIELDS, parts: MAX_FIELDS + 1 },
  }).single('file');
  const planCheck = (req: Request, _res: Response, next: NextFunction) => {
    try {
      assertAmbientAudioPlan(contextOf(req));
    } catch (error) {
      return reject(req, next, error);
    }
    if (!req.is('multipart/form-data')) {
      return reject(req, next, new ApiError('unsupported_media_type', 'Send multipart/form-data.'));
    }
    next();
  };
  const upload = (req: Request, res: Response, next: NextFunction) => {
    res.once('close', () => {
      if (req.file?.path) void rm(req.file.path, { force: true });
    });
    parse(req, res, (error?: unknown) => next(error ? toProblem(error, limitBytes) : undefined));
  };
  return [planCheck, upload];
};
