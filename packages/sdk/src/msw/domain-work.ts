import type { CallImportRow, DiarisationSummary, TranscribeResult } from '@voice-eval/contract';
import { createRow, filterRows, patchRow } from './crud.js';
import { idOf, type MockEnv, notFound, paginate, type RouteImpl } from './env.js';
import type { ParsedRequest } from './respond.js';

type Body = Record<string, unknown>;
const bodyOf = (req: { body: unknown }) => (req.body ?? {}) as Body;

const rowsOf = (env: MockEnv, callImportId: string): CallImportRow[] =>
  env.db.callImportRows.all().filter((row) => row.call_import_id === callImportId);

/** Row ids a bulk action is limited to; null or absent means every row. */
const selected = (env: MockEnv, req: ParsedRequest): CallImportRow[] => {
  const ids = bodyOf(req).row_ids as string[] | null | undefined;
  const rows = rowsOf(env, idOf(req));
  return ids ? rows.filter((row) => ids.includes(row.id)) : rows;
};

const createCallImport: RouteImpl = (req, env) => {
  const form = req.body as FormData;
  const files = [...form.getAll('file'), ...form.getAll('files')].filter((f): f is File => f instanceof File);
  const schemaId = form.get('schema_id');
  if (typeof schemaId !== 'string' || files.length === 0) {
    return { status: 422, body: { detail: 'Send `schema_id` and a `file` or `files`.' } };
  }
  const extension = files[0]!.name.split('.').pop()?.toLowerCase();
  const tagIds = form.getAll('tag_ids').map(String);
  const text = (name: string) =>
    typeof form.get(name) === 'string' ? (form.get(name) as string) : undefined;
  const mapping = text('column_mapping');
  const parsed: ParsedRequest = {
    ...req,
    body: {
      schema_id: schemaId,
      original_filename: files[0]!.name,
      source_format: extension === 'csv' || extension === 'xlsx' ? extension : 'audio',
      source_size_bytes: files.reduce((n, f) => n + f.size, 0),
      dataset: text('dataset') ?? null,
      sheet_name: text('sheet_name') ?? null,
      provider: text('provider') ?? 'upload',
      column_mapping: mapping ? JSON.parse(mapping) : {},
      tags: env.db.tags.all().filter((tag) => tagIds.includes(tag.id)),
      status: 'pending',
    },
  };
  return { status: 201, body: createRow(env, 'callImports', parsed) };
};

const transcribe: RouteImpl = (req, env) => {
  if (!env.db.callImports.get(idOf(req), req.workspaceId)) return notFound('Call import');
  const overwrite = bodyOf(req).overwrite_existing === true;
  const counts: Record<string, number> = {};
  let queued = 0;
  for (const row of selected(env, req)) {
    const status = row.diarised_transcript_status;
    const skip =
      status === 'pending' || status === 'running'
        ? 'in_progress'
        : status === 'completed' && !overwrite
          ? 'already_transcribed'
          : undefined;
    if (skip) counts[skip] = (counts[skip] ?? 0) + 1;
    else {
      env.db.callImportRows.update(row.id, {
        diarised_transcript_status: 'pending',
        diarised_transcript_error: null,
      });
      queued += 1;
    }
  }
  const skipped = Object.values(counts).reduce((a, b) => a + b, 0);
  const body: TranscribeResult = {
    queued,
    skipped_rows: skipped,
    skipped_reason_counts: counts,
    accepted: queued > 0,
  };
  return { status: 202, body };
};

const cancelDiarisation: RouteImpl = (req, env) => {
  if (!env.db.callImports.get(idOf(req), req.workspaceId)) return notFound('Call import');
  let cancelled = 0;
  const rows = selected(env, req);
  for (const row of rows) {
    if (row.diarised_transcript_status !== 'pending' && row.diarised_transcript_status !== 'running')
      continue;
    const error = {
      code: 'cancelled' as const,
      message: 'Cancelled',
      provider: null,
      model: null,
      at: env.seq.timestamp(),
    };
    env.db.callImportRows.update(row.id, {
      diarised_transcript_status: 'failed',
      diarised_transcript_error: error,
    });
    cancelled += 1;
  }
  return { status: 200, body: { cancelled, skipped: rows.length - cancelled } };
};

/** Rows per diarisation status and failed rows per error code, as the server counts them. */
const diarisationOf = (rows: CallImportRow[]): DiarisationSummary => {
  const summary: DiarisationSummary = { pending: 0, running: 0, completed: 0, failed: 0, errors_by_code: {} };
  for (const row of rows) {
    if (row.diarised_transcript_status) summary[row.diarised_transcript_status] += 1;
    const code =
      row.diarised_transcript_status === 'failed' ? row.diarised_transcript_error?.code : undefined;
    if (code) summary.errors_by_code[code] = (summary.errors_by_code[code] ?? 0) + 1;
  }
  return summary;
};

const scopeKey = (query: Record<string, unknown>) => JSON.stringify(Object.entries(query).sort());

/** Routes that start or track background work, uploads and other actions with side effects. */
export const workImpls: Record<string, RouteImpl> = {
  'callImports.create': createCallImport,
  'callImports.list': (req, env) => {
    // `non_audio` means CSV, XLSX and legacy imports (no format): neither audio nor simulation.
    const { source_format: wanted, ...query } = req.query;
    const rows = env.db.callImports.all(req.workspaceId).filter((row) => {
      if (wanted === undefined) return true;
      if (wanted !== 'non_audio') return row.source_format === wanted;
      return row.source_format !== 'audio' && row.source_format !== 'simulation';
    });
    return paginate(filterRows(rows, query), req.query);
  },
  'callImports.get': (req, env) => {
    const found = env.db.callImports.get(idOf(req), req.workspaceId);
    if (!found) return notFound('Call import');
    const {
      row_limit = 100,
      row_offset = 0,
      q,
      diarised_status,
    } = req.query as Record<string, number | string | undefined>;
    const rows = filterRows(rowsOf(env, found.id), { q, diarised_transcript_status: diarised_status });
    const window = rows
      .sort((a, b) => a.source_row - b.source_row)
      .slice(Number(row_offset), Number(row_offset) + Number(row_limit));
    return {
      status: 200,
      body: {
        ...found,
        rows: window,
        rows_total: rows.length,
        diarisation: diarisationOf(rowsOf(env, found.id)),
      },
    };
  },
  'callImports.rowIds': (req, env) => {
    if (!env.db.callImports.get(idOf(req), req.workspaceId)) return notFound('Call import');
    const { q, diarised_status } = req.query;
    const rows = filterRows(rowsOf(env, idOf(req)), { q, diarised_transcript_status: diarised_status });
    return { status: 200, body: { ids: rows.map((row) => row.id), total: rows.length } };
  },
  'callImports.transcribe': transcribe,
  'callImports.cancelDiarisation': cancelDiarisation,
  'evaluations.create': (req, env) => {
    const callImportId = bodyOf(req).call_import_id as string;
    const total = rowsOf(env, callImportId).length;
    return {
      status: 202,
      body: createRow(env, 'evaluations', req, { status: 'pending', total_rows: total, pending_rows: total }),
    };
  },
  'evaluations.listRows': (req, env) => {
    if (!env.db.evaluations.get(idOf(req), req.workspaceId)) return notFound('Evaluation');
    const { status, flagged, call_import_row_id: rowId } = req.query;
    const rows = env.db.evaluationRows
      .all()
      .filter((row) => row.evaluation_id === idOf(req))
      .filter((row) => rowId === undefined || row.call_import_row_id === rowId)
      .filter((row) => flagged === undefined || row.results.some((r) => r.flagged) === flagged);
    return paginate(filterRows(rows, { status }), req.query);
  },
  'evaluations.cancel': (req, env) => {
    const found = env.db.evaluations.get(idOf(req), req.workspaceId);
    const active = found?.status === 'pending' || found?.status === 'running';
    return patchRow(env, 'evaluations', req, active ? { status: 'cancelled' } : {});
  },
  'evaluatorResults.metricClusters': (req, env) => ({
    status: 200,
    body: env.generatedClusterScopes.has(scopeKey(req.query))
      ? env.fixtures.metricClustersReport({ generated_at: env.seq.timestamp() })
      : env.fixtures.metricClustersReport({
          status: 'idle',
          progress: { phase: 'idle', completed_steps: 0, total_steps: 0 },
        }),
  }),
  'evaluatorResults.generateMetricClusters': (req, env) => {
    const { max_llm_calls: _max, ...scope } = bodyOf(req);
    env.generatedClusterScopes.add(scopeKey(scope));
    const progress = { phase: 'queued' as const, completed_steps: 0, total_steps: 1 };
    return { status: 202, body: env.fixtures.metricClustersReport({ status: 'running', progress }) };
  },
  'aiProviders.test': (req, env) => {
    const tested = patchRow(env, 'aiProviders', req, { last_tested_at: env.seq.timestamp() });
    return tested.status === 200 ? { status: 200, body: env.fixtures.aiProviderTestResult() } : tested;
  },
  'personas.uploadAmbientAudio': (req, env) => {
    const file = (req.body as FormData).get('file');
    if (!(file instanceof File))
      return { status: 422, body: { detail: 'Send the audio in the `file` field.' } };
    const assetId = env.seq.uuid();
    const patch = {
      background_noise_source: 'custom',
      background_noise_storage_key: `ambient/${assetId}`,
      background_noise_asset_id: assetId,
    };
    return patchRow(env, 'personas', req, patch);
  },
  'personas.deleteAmbientAudio': (req, env) =>
    patchRow(env, 'personas', req, {
      background_noise_source: 'none',
      background_noise_storage_key: null,
      background_noise_asset_id: null,
    }),
  'metrics.promote': (req, env) =>
    patchRow(env, 'metrics', req, { lifecycle: 'active', promoted_from_draft_at: env.seq.timestamp() }),
  'evaluators.bulk': (req, env) => {
    const { persona_ids = [], ...rest } = bodyOf(req) as { persona_ids?: string[] };
    const created = persona_ids.map((persona_id) =>
      createRow(env, 'evaluators', { ...req, body: { ...rest, persona_id } }),
    );
    return { status: 201, body: created, headers: { deprecation: 'true' } };
  },
};
