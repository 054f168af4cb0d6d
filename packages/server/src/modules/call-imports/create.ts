import { randomUUID } from 'node:crypto';
import type { CallImport, CallImportSchema, Tag } from '@voice-eval/contract';
import { actorLabel, type RequestContext } from '../../context.js';
import type { Deps } from '../../deps.js';
import { ApiError } from '../../errors.js';
import { blobKey } from '../../storage/index.js';
import { getCallImportSchema } from '../call-import-schemas/service.js';
import { resolveTags } from '../tags/service.js';
import { assertAudioSchema, ingestAudio } from './audio.js';
import { type CreateFields, parseCreateFields } from './create-fields.js';
import { ingestRecords } from './ingest.js';
import { type ColumnPlan, planColumns } from './mapping.js';
import * as repo from './repo.js';
import { toCallImport } from './service.js';
import { openCsv } from './sources/csv.js';
import {
  detectManifestFormat,
  type ManifestFormat,
  type ManifestSource,
  SourceReadError,
} from './sources/source.js';
import { openXlsx } from './sources/xlsx.js';
import { storeFile } from './store-file.js';
import type { UploadedFiles } from './upload.js';

const CONTENT_TYPES: Record<ManifestFormat, string> = {
  csv: 'text/csv',
  xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
};

type Job = { deps: Deps; ctx: RequestContext; base: repo.ImportWrite; schema: CallImportSchema; tags: Tag[] };

const invalid = (path: string, message: string) =>
  new ApiError('validation_failed', message, { errors: [{ path, message }] });

/** The schema of the active workspace; an unknown id is a 422 on `body.schema_id` (it is a body reference). */
const schemaFor = async (deps: Deps, ctx: RequestContext, id: string) => {
  try {
    return await getCallImportSchema(deps, ctx, id);
  } catch (error) {
    if (!(error instanceof ApiError) || error.code !== 'not_found') throw error;
    throw new ApiError('rule_violation', 'The call-import schema does not exist in this workspace.', {
      errors: [{ path: 'body.schema_id', message: `Schema ${id} not found` }],
    });
  }
};

const baseRow = (ctx: RequestContext, fields: CreateFields, schemaId: string): repo.ImportWrite => ({
  id: randomUUID(),
  organization_id: ctx.organizationId,
  workspace_id: ctx.workspaceId,
  schema_id: schemaId,
  provider: fields.provider,
  dataset: fields.dataset ?? null,
  column_mapping: fields.column_mapping ?? {},
  created_by: actorLabel(ctx),
  created_by_email: ctx.principal.kind === 'user' ? ctx.principal.email : null,
  last_updated_by_email: ctx.principal.kind === 'user' ? ctx.principal.email : null,
});

/** Records an import whose source could not be read: `failed`, no rows, the reason in `error_message`. */
const recordFailed = (job: Job, row: repo.ImportWrite, message: string) =>
  job.deps.db.transaction(async (trx) => {
    const created = await repo.insertImport(trx, { ...row, status: 'failed', error_message: message });
    await repo.insertImportTags(
      trx,
      created.id,
      job.tags.map((t) => t.id),
    );
    return created;
  });

/** Creates the import and its rows in one transaction: readers see it only once `completed`. */
const ingestManifest = (job: Job, row: repo.ImportWrite, source: ManifestSource, plan: ColumnPlan) =>
  job.deps.db.transaction(async (trx) => {
    const created = await repo.insertImport(trx, {
      ...row,
      status: 'processing',
      parameter_mapping: plan.parameterMapping,
      column_mapping: plan.columnMapping,
      custom_column_mapping: plan.customColumnMapping,
      extra_columns: plan.extraColumns,
      skipped_columns: plan.skippedColumns,
    });
    await repo.insertImportTags(
      trx,
      created.id,
      job.tags.map((t) => t.id),
    );
    const result = await ingestRecords(trx, created.id, plan, source.records);
    const chosen = { name: source.sheetName, headers: source.headers, row_count: result.dataRows };
    return repo.updateImport(trx, created.id, {
      status: 'completed',
      total_rows: result.inserted,
      source_row_skips: result.skips.sorted(),
      available_sheets: await source.sheets(chosen),
    });
  });

/**
 * A CSV or XLSX manifest: the format is judged by content (415 otherwise), the mapping checked
 * against the header row (422) before anything is stored; then the source file is kept in storage
 * and its rows streamed in. A source that cannot be read is recorded as a `failed` import.
 */
const fromManifest = async (job: Job, file: Express.Multer.File, sheetName: string | undefined) => {
  const format = await detectManifestFormat(file.path);
  if (!format)
    throw new ApiError('unsupported_media_type', 'The file is neither a CSV nor an XLSX manifest.');
  if (format === 'csv' && sheetName)
    throw invalid('body.sheet_name', 'sheet_name applies to XLSX files only');
  const key = blobKey('call-imports', job.ctx.organizationId, job.base.id!, `source.${format}`);
  const row: repo.ImportWrite = {
    ...job.base,
    original_filename: file.originalname,
    source_format: format,
    source_content_type: CONTENT_TYPES[format],
    source_size_bytes: file.size,
    source_storage_key: key,
  };
  let source: ManifestSource | undefined;
  try {
    source =
      format === 'csv' ? await openCsv(file.path, file.originalname) : await openXlsx(file.path, sheetName);
    const plan = planColumns(source.headers, job.schema.parameters, job.base.column_mapping);
    await storeFile(job.deps.storage, key, file.path, CONTENT_TYPES[format]);
    const sheet = format === 'xlsx' ? source.sheetName : null;
    return await ingestManifest(job, { ...row, sheet_name: sheet }, source, plan);
  } catch (error) {
    if (!(error instanceof SourceReadError)) {
      await job.deps.storage.delete(key).catch(() => undefined);
      throw error;
    }
    if (!(await job.deps.storage.exists(key)))
      await storeFile(job.deps.storage, key, file.path, CONTENT_TYPES[format]);
    return recordFailed(job, { ...row, sheet_name: source?.sheetName ?? sheetName ?? null }, error.message);
  } finally {
    await source?.close();
  }
};

/** Audio recordings: one row each, stored under the import; stored files are removed if the import is not created. */
const fromAudio = async (job: Job, files: Express.Multer.File[]) => {
  assertAudioSchema(job.schema);
  const idParameter = job.schema.parameters.find((p) => p.type === 'conversation_id')!.name;
  const storedKeys: string[] = [];
  try {
    return await job.deps.db.transaction(async (trx) => {
      const created = await repo.insertImport(trx, {
        ...job.base,
        status: 'processing',
        original_filename: files[0]!.originalname,
        source_format: 'audio',
        source_size_bytes: files.reduce((sum, f) => sum + f.size, 0),
      });
      await repo.insertImportTags(
        trx,
        created.id,
        job.tags.map((t) => t.id),
      );
      const ingest = { deps: job.deps, ctx: job.ctx, callImportId: created.id, idParameter, storedKeys };
      const result = await ingestAudio(trx, files, ingest);
      return repo.updateImport(trx, created.id, {
        status: 'completed',
        total_rows: result.inserted,
        source_row_skips: result.skips.sorted(),
      });
    });
  } catch (error) {
    await Promise.all(storedKeys.map((key) => job.deps.storage.delete(key).catch(() => undefined)));
    throw error;
  }
};

/**
 * POST /call-imports: validates the form (422), the schema and tags of the workspace (422), then
 * ingests within the request. Uploads are visible once ingested: `completed`, or `failed` with
 * `error_message` when the source cannot be read (both answered 201); `pending` and `processing`
 * are never observed for uploads.
 */
export const createCallImport = async (
  deps: Deps,
  ctx: RequestContext,
  body: unknown,
  uploaded: UploadedFiles,
): Promise<CallImport> => {
  const fields = parseCreateFields(body);
  const manifest = uploaded.file?.[0];
  const recordings = uploaded.files ?? [];
  if (!manifest === (recordings.length === 0)) {
    throw invalid('body', 'Send either one manifest in "file" or recordings in "files".');
  }
  const schema = await schemaFor(deps, ctx, fields.schema_id);
  const tags = await resolveTags(deps, ctx, fields.tag_ids ?? []);
  const job: Job = { deps, ctx, base: baseRow(ctx, fields, schema.id), schema, tags };
  if (!manifest && fields.sheet_name)
    throw invalid('body.sheet_name', 'sheet_name applies to XLSX files only');
  try {
    const row = manifest
      ? await fromManifest(job, manifest, fields.sheet_name)
      : await fromAudio(job, recordings);
    return toCallImport(row, tags);
  } catch (error) {
    // the schema or a tag was deleted while the import was being written
    if ((error as { code?: string }).code === '23503') {
      throw new ApiError('rule_violation', 'The schema or a tag was deleted meanwhile; try again.');
    }
    throw error;
  }
};
