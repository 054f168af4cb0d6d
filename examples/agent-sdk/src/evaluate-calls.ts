import type {
  CallImport,
  Evaluation,
  EvaluationResult,
  EvaluationRow,
  Uploadable,
  VoiceEval,
} from '@voice-eval/sdk';
import { CALLS_SCHEMA, ensureCallMetrics, ensureCallsSchema } from './setup.js';

/** Options of {@link evaluateCalls}. */
export interface EvaluateCallsOptions {
  /**
   * The calls: CSV text, or a file, with the columns of `CALLS_SCHEMA.columns` ("Call ID",
   * "Agent", "Recording URL", "Transcript"). Each call needs a recording URL or a transcript.
   */
  csv: string | Uploadable;
  /** Dataset label stored on the import. */
  dataset?: string;
  /** Speech-to-text provider for recordings. @default 'default' (the server's default provider) */
  sttProvider?: string;
  /** Speech-to-text model. @default 'whisper-1' */
  sttModel?: string;
  /** Pause between status polls, in milliseconds. @default 2000 */
  pollIntervalMs?: number;
  /** Give up on each wait (transcription, evaluation) after this long, in milliseconds. @default 1800000 */
  timeoutMs?: number;
}

/** A call with at least one flagged result, and the results that were flagged. */
export interface FlaggedCall {
  conversationId: string;
  failures: Array<{ metric: string; value: EvaluationResult['value']; rationale: string | null }>;
}

/** What an evaluation of a CSV of calls found. */
export interface CallsEvaluationSummary {
  callImportId: string;
  evaluationId: string;
  status: Evaluation['status'];
  /** Calls imported from the CSV. */
  calls: number;
  /** CSV rows that were not imported (empty, duplicate ids, bad values), with the reason. */
  skippedSourceRows: CallImport['source_row_skips'];
  /** Recordings transcribed by this run. */
  transcribed: number;
  /** Recordings that could not be transcribed, with the reason. */
  transcriptionFailures: Array<{ conversationId: string; message: string }>;
  /** Calls left out of the evaluation: they have no transcript (no usable recording, none in the CSV). */
  unscored: number;
  /** Calls the judge scored. */
  scored: number;
  /** Calls the judge could not score (no transcript, provider errors), with the error code. */
  scoringFailures: Array<{ conversationId: string; code: string }>;
  flagged: FlaggedCall[];
  /** Flagged calls per metric name. */
  flaggedByMetric: Record<string, number>;
}

const toUpload = (csv: string | Uploadable): Uploadable =>
  typeof csv === 'string' ? { data: new TextEncoder().encode(csv), filename: 'calls.csv' } : csv;

/**
 * Queues the recordings of calls that carry no transcript for transcription and waits until none
 * is in progress. Calls with a transcript in the CSV are scored on it as they are (`only_missing`).
 */
const transcribe = async (client: VoiceEval, callImportId: string, options: EvaluateCallsOptions) => {
  const queued = await client.callImports.transcribe(callImportId, {
    mode: 'stt_llm',
    only_missing: true,
    stt_provider: options.sttProvider ?? 'default',
    stt_model: options.sttModel ?? 'whisper-1',
  });
  if (queued.accepted) {
    await client.callImports.waitForTranscription(callImportId, {
      intervalMs: options.pollIntervalMs,
      timeoutMs: options.timeoutMs ?? 30 * 60_000,
    });
  }
  const failed = await client.callImports.get(callImportId, { diarised_status: 'failed', row_limit: 5000 });
  return {
    transcribed: queued.queued - failed.rows_total,
    failures: failed.rows.map((row) => ({
      conversationId: row.conversation_id,
      message: row.diarised_transcript_error?.message ?? 'unknown error',
    })),
  };
};

/** Folds the scored rows of an evaluation into flagged calls and failures. */
const summariseRows = (rows: EvaluationRow[]) => {
  const flagged: FlaggedCall[] = [];
  const flaggedByMetric: Record<string, number> = {};
  const scoringFailures: CallsEvaluationSummary['scoringFailures'] = [];
  for (const row of rows) {
    if (row.status !== 'completed') {
      scoringFailures.push({ conversationId: row.conversation_id, code: row.error?.code ?? row.status });
      continue;
    }
    const failures = row.results
      .filter((result) => result.flagged)
      .map((result) => ({ metric: result.metric_name, value: result.value, rationale: result.rationale }));
    if (failures.length === 0) continue;
    flagged.push({ conversationId: row.conversation_id, failures });
    for (const failure of failures)
      flaggedByMetric[failure.metric] = (flaggedByMetric[failure.metric] ?? 0) + 1;
  }
  flagged.sort((a, b) => a.conversationId.localeCompare(b.conversationId));
  return { flagged, flaggedByMetric, scoringFailures, scored: rows.length - scoringFailures.length };
};

/**
 * Evaluates a CSV of recorded calls end to end: makes sure the metrics and the call-import schema
 * exist, imports the CSV, transcribes the recordings, scores every call with the LLM judge and
 * returns what was flagged. Throws when the import cannot be read or the evaluation cannot run.
 */
export async function evaluateCalls(
  client: VoiceEval,
  options: EvaluateCallsOptions,
): Promise<CallsEvaluationSummary> {
  const metrics = await ensureCallMetrics(client);
  const schema = await ensureCallsSchema(client);
  const callImport = await client.callImports.create({
    file: toUpload(options.csv),
    schema_id: schema.id,
    column_mapping: { ...CALLS_SCHEMA.columns },
    dataset: options.dataset,
  });
  if (callImport.status === 'failed')
    throw new Error(`The CSV could not be imported: ${callImport.error_message}`);
  const transcription = await transcribe(client, callImport.id, options);

  const started = await client.evaluations.create({
    call_import_id: callImport.id,
    metric_ids: [metrics.outcome.id, metrics.identity.id],
  });
  const evaluation = await client.evaluations.waitForCompletion(started.id, {
    intervalMs: options.pollIntervalMs,
    timeoutMs: options.timeoutMs ?? 30 * 60_000,
  });
  if (evaluation.status !== 'completed') {
    throw new Error(
      `Evaluation ${evaluation.id} ended ${evaluation.status}: ${evaluation.error_message ?? ''}`,
    );
  }
  const rows = await client.evaluations
    .listRows(evaluation.id, { page_size: 100 })
    .toArray({ limit: 10_000 });
  return {
    callImportId: callImport.id,
    evaluationId: evaluation.id,
    status: evaluation.status,
    calls: callImport.total_rows,
    skippedSourceRows: callImport.source_row_skips,
    transcribed: transcription.transcribed,
    transcriptionFailures: transcription.failures,
    unscored: callImport.total_rows - evaluation.total_rows,
    ...summariseRows(rows),
  };
}
